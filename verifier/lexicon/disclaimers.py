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
        "me",
        "esté",
        "estén",
        "sea",
        "evidence",
        "pruebas",
        "move",
        "drop",
        "decline",
        "fall",
        "rise",
        "gain",
        "caída",
        "subida",
        "bajada",
        "alza",
        "movimiento",
        "confirmar",
        "saber",
        "whether",
        "si",
        "que",
        "acceso",
        "access",
        "establecer",
        "aclaran",
        "aclara",
        "qué",
        "see",
        "anything",
        "tell",
        "used",
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
        "why",
        "related",
        "relacionado",
        "relacionada",
        "relacionados",
        "relacionadas",
        "vinculada",
        "vinculado",
        "vinculen",
        "vincule",
        "influyó",
        "influenced",
        "influence",
        "linking",
        "tied",
        "ties",
        "tying",
        "connects",
        "attributes",
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
                "undervalued",
                "overvalued",
                "cheap",
                "expensive",
                "infravalorada",
                "infravalorado",
                "sobrevalorada",
                "sobrevalorado",
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
        "say",
        "says",
        "tell",
        "tells",
        "show",
        "shows",
        "dice",
        "dicen",
        "muestra",
        "muestran",
        "demostrada",
        "demostrado",
        "probada",
        "probado",
        "confirmada",
        "confirmado",
        "established",
        "proven",
        "confirmar",
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
    r"(?:it(?:'s|’s|\s+is)\s+)?(?:plausible|possible|conceivable)\s+(?:that\s+)?(?:the\s+|this\s+|"
    r"that\s+)?(?:news|headline|story|item|announcement|report|it|this|that)s?\s+(?:played|"
    r"(?:may|might|could)\s+have\s+played|had)\s+(?:a|some)\s+(?:role|part)",
    r"whether\s+(?:that|the|this|these|any|it|they)\s+(?:[\w'’-]+\s+){0,3}?(?:drove|caused|explains|"
    r"explained|moved|was\s+behind|were\s+behind)\s+(?:the\s+|that\s+|this\s+)?(?:move|drop|rise|"
    r"decline|gain|shares|stock|session)\s+(?:is|remains)\s+(?:unclear|uncertain|unknown|not\s+clear)",
    r"(?:es\s+)?(?:posible|plausible|probable)\s+que\s+(?:haya|exista|tenga|tuviera|haya\s+tenido)"
    r"\s+(?:alguna\s+)?(?:relación|vínculo|conexión|influencia|peso|que\s+ver)",
    r"(?:podría|podrían|puede|pueden|pudo|pudieron|puede\s+que|quizá|quizás|tal\s+vez)\s+"
    r"(?:estar|ser|haber\s+estado|esté|estén|está|están|sea|sean)\s+"
    r"(?:relacionad[oa]s?|vinculad[oa]s?|relevantes?|conectad[oa]s?)",
)
"""A relation said to be possible, never asserted: free only in a sentence whose disclaimer
says the data does not confirm it."""
DECLINES = (
    r"(?:i(?:'d|’d|\s+would)\s+)?(?:treat|read|see|take)\s+(?:it|them|this|that|these|the\s+news)\s+as\s+"
    r"(?:a\s+)?(?:possible|potential)\s+(?:contributor|context|factor|influence)s?\s+rather\s+than"
    r"\s+(?:the|a|an)\s+(?:cause|explanation|driver|reason)",
    r"(?:any|an)\s+(?:explanation|reason|attribution)(?:\s+for\s+(?:the|this|that|today's|"
    r"today’s)\s+(?:move|drop|rise|decline|gain|fall|session))?\s+would\s+be\s+(?:speculation|"
    r"speculative|guesswork|a\s+guess)",
    r"(?:no\s+puedo|no\s+podemos)\s+(?:pronunciarme|pronunciarnos|opinar)(?:\s+sobre\s+"
    r"(?:ello|eso|esto))?",
    r"(?:i|we)\s+(?:can't|cannot|can’t)\s+(?:comment|say|speculate)(?:\s+on\s+(?:that|this|it))?",
    r"sería\s+(?:especular|especulativo|pura\s+especulación)",
)
"""The writer declining to go beyond the data: free only beside a disclaimer."""
NEWS_EVENTS = frozenset(
    [
        "merger",
        "mergers",
        "acquisition",
        "acquisitions",
        "takeover",
        "buyout",
        "bid",
        "lawsuit",
        "lawsuits",
        "suit",
        "litigation",
        "recall",
        "recalls",
        "bankruptcy",
        "bankrupt",
        "resignation",
        "resigned",
        "resigns",
        "layoff",
        "layoffs",
        "job",
        "cuts",
        "investigation",
        "probe",
        "subpoena",
        "downgrade",
        "downgraded",
        "upgrade",
        "upgraded",
        "buyback",
        "buybacks",
        "repurchase",
        "offering",
        "offerings",
        "approval",
        "approved",
        "rejection",
        "rejected",
        "settlement",
        "settled",
        "fine",
        "fined",
        "penalty",
        "scandal",
        "breach",
        "hack",
        "outage",
        "strike",
        "strikes",
        "tariff",
        "tariffs",
        "sanction",
        "sanctions",
        "deal",
        "deals",
        "contract",
        "contracts",
        "partnership",
        "partnerships",
        "agreement",
        "launch",
        "launched",
        "spinoff",
        "spin",
        "divestiture",
        "sale",
        "guidance",
        "forecast",
        "outlook",
        "warning",
        "miss",
        "beat",
        "appointment",
        "appointed",
        "ceo",
        "cfo",
        "chairman",
        "executive",
        "executives",
        "lawsuit",
        "default",
        "downgrades",
        "upgrades",
        "rumor",
        "rumors",
        "rumour",
        "report",
        "reports",
        "filing",
        "fusión",
        "fusiones",
        "adquisición",
        "adquisiciones",
        "opa",
        "demanda",
        "demandas",
        "quiebra",
        "concurso",
        "dimisión",
        "dimite",
        "despidos",
        "investigación",
        "rebaja",
        "recompra",
        "recompras",
        "emisión",
        "aprobación",
        "multa",
        "sanción",
        "sanciones",
        "escándalo",
        "huelga",
        "arancel",
        "aranceles",
        "acuerdo",
        "acuerdos",
        "contrato",
        "contratos",
        "alianza",
        "lanzamiento",
        "previsión",
        "previsiones",
        "nombramiento",
        "consejero",
        "rumor",
        "rumores",
        "informe",
    ]
)
"""News a sentence about the data's limits may not bring in ("the data doesn't include the
CFO's resignation" says there was one): its words stay claims unless a rule binds them."""


_LIMIT_TEXT = """
    abarca able absence acreditada action activity added advertencia afirmar afirmarlo afraid
    again ahora alguna alguno alone already aparecería arroja asesoría assessment assume assumes
    atribuirle attribution ausencia aviso basada beyond books can't candidate candidates cannot
    carries carácter catalyst catalysts causa causado causal causalidad causality causara
    causation cause caused caution caveats certeza checking christmas cierta claim claro
    cobertura coincidence coincidencia color commentary communication compare conclusive
    concreta concreto confirm confirma confirman confirmarlo confirmed confirmen confirmo
    confirms connection consultaron contamos contexto conviene correlation cover covered covers
    cualquier cubre cubren dataset deberse deeper descarta descriptive desk determinar
    determined diary dicen dichas didn't directamente dispongo documento doesn't doing don't
    drove elabora elementos ellos elsewhere especulación especulativo establecen establecer
    establish established establishes estar evidence explaining explains explanation explica
    explicación explican explicitly explique expliquen extra fact factor factores filings
    financiera finding fines flag flash forma fraction front full further future general gets go
    goes going guardar guess haber hang happened happy haven't helps hence hipótesis honestly
    horarios horizon how hypothesis i'm idea identifiable identificar implica imply impulsó
    influenced influyera informativo informativos isn't keep keeping known landing later layered
    liga limited link llega llegan magnitud material means menciona meramente message mind
    moment momento motivo motivó nos nosotros nota notice novedades offer offered older outcomes
    outputs outside p particular perhaps permite permiten pesos picture played podría podrían
    pointing porqué posibilidad posible positioning possibility possible possibly posteriores
    precisarlo predates prepared presente previstos profile proof proven provide provided
    provocó prueba puede puedo pulled purposes quick qué r rankings rather reason recoge recogen
    references reflect reflected reflects relaciona relacionada relación relevado relevamiento
    respalden responde respuesta reviewed revisó risk runs sabemos saber say saying scheduling
    see seguro set señalar side simply something speak speculate speculation speculative
    suggests supported sure tell temporal tener tengo tentative therefore thing thru tie tiempo
    tomaríamos treat trend unclear vincular vouch vínculo wasn't why
"""
LIMIT_WORDS = frozenset(_LIMIT_TEXT.split())
"""The words a sentence about the data's limits, or one that holds a relation open ("it may
have played a part, but the data doesn't establish cause"), may hold beyond the free words and
the grammar's: a closed list, read off the faithful drafts of the corpora, so that a fact
slipped into such a sentence ("... does not include the S&P inclusion", "..., and the
regulator sued the company") stays unbound. A word a faithful hedge needs and this list lacks
makes a readable `unverified_claim`: add it here if it carries no fact."""
