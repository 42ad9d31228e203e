"""The words of a disclaimer: what a draft says the data it pulled does not hold.

"I don't have valuation data or analyst views here", "nothing in the data confirms a link to the
move", "los datos no permiten atribuirle el movimiento": a negation, the data (or the writer who
pulled it) as the subject, and a category no offered tool returns. Each is held by
`verifier/rules/disclaimers.py`; the words here are case-folded single words (the rule reads
them one by one within a clause) or regex fragments (`HEDGES`, `DECLINES`).
"""

from __future__ import annotations

NEGATIONS = frozenset(
    [
        "no",
        "not",
        "nothing",
        "none",
        "neither",
        "nor",
        "never",
        "without",
        "don't",
        "doesn't",
        "didn't",
        "isn't",
        "aren't",
        "wasn't",
        "can't",
        "cannot",
        "won't",
        "haven't",
        "hasn't",
        "don’t",
        "doesn’t",
        "didn’t",
        "isn’t",
        "aren’t",
        "can’t",
        "haven’t",
        "hasn’t",
        "ni",
        "ningún",
        "ninguna",
        "ninguno",
        "nada",
        "sin",
        "nunca",
    ]
)
SUBJECTS = frozenset(
    [
        "data",
        "tool",
        "tools",
        "result",
        "results",
        "search",
        "searches",
        "trace",
        "information",
        "info",
        "figures",
        "i",
        "we",
        "datos",
        "herramienta",
        "herramientas",
        "resultados",
        "información",
        "búsqueda",
        "búsquedas",
        "consulta",
        "consultas",
        "tengo",
        "tenemos",
        "dispongo",
        "disponemos",
        "puedo",
        "podemos",
    ]
)
"""The data, or the writer who pulled it, as the subject: the disclaimer speaks of the trace."""
HOLDING = frozenset(
    [
        "have",
        "has",
        "hold",
        "holds",
        "include",
        "includes",
        "contain",
        "contains",
        "identify",
        "identifies",
        "identified",
        "show",
        "shows",
        "showed",
        "establish",
        "establishes",
        "established",
        "confirm",
        "confirms",
        "confirmed",
        "support",
        "supports",
        "offer",
        "offers",
        "provide",
        "provides",
        "cover",
        "covers",
        "mention",
        "mentions",
        "say",
        "says",
        "tell",
        "tells",
        "pulled",
        "retrieved",
        "consulted",
        "available",
        "explicitly",
        "directly",
        "clearly",
        "here",
        "beyond",
        "that",
        "on",
        "what",
        "any",
        "only",
        "trend",
        "prices",
        "details",
        "speak",
        "point",
        "incluyen",
        "incluye",
        "contienen",
        "contiene",
        "identifican",
        "identifica",
        "muestran",
        "muestra",
        "confirman",
        "confirma",
        "establecen",
        "establece",
        "permiten",
        "permite",
        "aportan",
        "aporta",
        "ofrecen",
        "ofrece",
        "recogen",
        "recoge",
        "consultados",
        "consultadas",
        "disponibles",
        "explícitamente",
        "directamente",
        "claramente",
        "aquí",
        "allá",
        "lo",
        "le",
        "ello",
        "eso",
        "tendencia",
        "precios",
        "detalles",
    ]
)
"""Verbs of holding and the words around them ("in the data I pulled", "only prices, the trend
and company details"): free inside a disclaimer's clause, nowhere else."""
CAUSE = frozenset(
    [
        "link",
        "links",
        "linked",
        "linking",
        "causal",
        "cause",
        "causes",
        "caused",
        "catalyst",
        "catalysts",
        "driver",
        "drivers",
        "drove",
        "drive",
        "driving",
        "explain",
        "explains",
        "explained",
        "explanation",
        "explanations",
        "reason",
        "reasons",
        "attribute",
        "attributed",
        "attribution",
        "tie",
        "tied",
        "connect",
        "connected",
        "connection",
        "relación",
        "relacionar",
        "vínculo",
        "vínculos",
        "vincula",
        "vinculan",
        "vincular",
        "causa",
        "causas",
        "catalizador",
        "catalizadores",
        "explica",
        "explican",
        "explicar",
        "explicación",
        "motivo",
        "motivos",
        "atribuir",
        "atribuirle",
        "atribuirlo",
        "atribuirla",
        "impulsó",
    ]
)
"""Words of a cause: no tool returns one, so the data never holds it and a disclaimer of it is
true; free only after the negation of a disclaimer ("no catalyst is identified in the data"),
never before it ("the news drove it; the data has no link" asserts the cause)."""
EXTERNAL = {
    "analysts": (
        frozenset(
            [
                "analyst",
                "analysts",
                "views",
                "view",
                "ratings",
                "rating",
                "recommendations",
                "recommendation",
                "targets",
                "target",
                "consensus",
                "estimates",
                "upgrades",
                "downgrades",
                "coverage",
                "analistas",
                "analista",
                "recomendaciones",
                "recomendación",
                "objetivo",
                "objetivos",
                "consenso",
                "calificaciones",
                "estimaciones",
            ]
        ),
        ("analyst", "rating", "upgrade", "downgrade", "price target", "recommend", "analista"),
    ),
    "valuation": (
        frozenset(
            [
                "valuation",
                "valuations",
                "multiples",
                "fundamentals",
                "ratios",
                "valoración",
                "valoraciones",
                "múltiplos",
                "fundamentales",
            ]
        ),
        ("valuation", "p/e", "multiple", "price-to-earnings"),
    ),
    "guidance": (
        frozenset(
            [
                "guidance",
                "forecast",
                "forecasts",
                "outlook",
                "projections",
                "previsiones",
                "perspectivas",
                "proyecciones",
            ]
        ),
        ("guidance", "forecast", "outlook"),
    ),
}
"""Categories no offered tool returns as data, each with its words and what a result string
holding it would say ("analysts reiterate neutral rating"): where a result holds one, "I have
no analyst views" is `wrong_absence`."""
CONFIRMING = frozenset(
    [
        "confirm",
        "confirms",
        "confirmed",
        "establish",
        "establishes",
        "support",
        "supports",
        "confirman",
        "confirma",
        "establecen",
        "respaldan",
        "respalda",
    ]
)
"""Verbs that deny a hedge stated before them ("podrían estar relacionados, pero los datos no
lo confirman"): a disclaimer of a cause where the sentence holds a hedge."""
HEDGES = (
    r"(?:may|might|could)\s+(?:well\s+)?(?:be|have\s+been)\s+(?:relevant|related|connected|"
    r"linked|material|a\s+factor)",
    r"(?:podría|podrían|puede|pueden|pudo|pudieron)\s+(?:estar|ser|haber\s+estado)\s+"
    r"(?:relacionad[oa]s?|vinculad[oa]s?|relevantes?|conectad[oa]s?)",
)
"""A relation said to be possible, never asserted: free only in a sentence whose disclaimer
says the data does not confirm it."""
DECLINES = (
    r"(?:any|an)\s+(?:explanation|reason|attribution)(?:\s+for\s+(?:the|this|that|today's|"
    r"today’s)\s+(?:move|drop|rise|decline|gain|fall|session))?\s+would\s+be\s+(?:speculation|"
    r"speculative|guesswork|a\s+guess)",
    r"(?:no\s+puedo|no\s+podemos)\s+(?:pronunciarme|pronunciarnos|opinar)(?:\s+sobre\s+"
    r"(?:ello|eso|esto))?",
    r"(?:i|we)\s+(?:can't|cannot|can’t)\s+(?:comment|say|speculate)(?:\s+on\s+(?:that|this|it))?",
    r"sería\s+(?:especular|especulativo|pura\s+especulación)",
)
"""The writer declining to go beyond the data: free only beside a disclaimer."""
