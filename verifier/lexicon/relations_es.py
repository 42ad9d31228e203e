"""Spanish: the words of relations: between subjects (comparisons, rankings, streaks,
the counts they name) and of days to the report date ("yesterday"); spread into the `Lexicon` of `es.py`."""

from typing import Any

RELATIONS: dict[str, Any] = {
    "absence": {
        "news": (
            r"titulares?",
            r"noticias?",
            r"artículos?",
        ),
        "events": (
            r"eventos?",
            r"programad[oa]s?",
            r"previst[oa]s?",
        ),
        "earnings": (r"resultados",),
        "dividend": (r"dividendos?",),
        "split": (r"desdoblamientos?",),
    },
    "absence_words": (
        r"no",
        r"ningún",
        r"ninguna",
        r"ninguno",
        r"nada",
        r"sin",
        r"ni",
    ),
    "counted": {
        "gainers": (
            r"(?:posiciones|valores|títulos)\s+(?:subieron|ganaron|avanzaron)",
            r"(?:valores|posiciones)\s+al\s+alza",
        ),
        "decliners": (
            r"(?:posiciones|valores|títulos)\s+(?:cayeron|bajaron|perdieron|retrocedieron)",
            r"(?:valores|posiciones)\s+a\s+la\s+baja",
        ),
    },
    "news_order": {
        "latest": (
            r"más\s+reciente",
            r"último",
            r"última",
        ),
        "earliest": (
            r"más\s+antiguo",
            r"más\s+antigua",
            r"primero",
            r"primera",
            r"primer",
        ),
    },
    "relative_days": {
        "today": (r"hoy",),
        "yesterday": (r"ayer",),
        "year_end": (r"el\s+año", r"fin\s+de\s+año", r"cierre\s+de\s+año", r"cierre\s+del\s+año"),
    },
    "relations": {
        "above": (
            r"por\s+encima\s+de(?:l)?",
            r"superior(?:es)?\s+a(?:l)?",
            r"muy\s+superior(?:es)?\s+a(?:l)?",
            r"mayor(?:es)?\s+que",
            r"superó\s+a",
            r"superó",
            r"supera\s+a",
            r"supera",
            r"batió\s+a",
            r"batió",
            r"lo\s+hizo\s+mejor\s+que",
            r"por\s+delante\s+de",
            r"(?:subió|ganó)\s+más\s+que",
            r"(?:cayó|perdió)\s+menos\s+que",
        ),
        "below": (
            r"por\s+debajo\s+de(?:l)?",
            r"inferior(?:es)?\s+a(?:l)?",
            r"muy\s+inferior(?:es)?\s+a(?:l)?",
            r"menor(?:es)?\s+que",
            r"quedó\s+por\s+detrás\s+de",
            r"se\s+quedó\s+por\s+detrás\s+de",
            r"por\s+detrás\s+de",
            r"lo\s+hizo\s+peor\s+que",
            r"(?:cayó|perdió)\s+más\s+que",
            r"(?:subió|ganó)\s+menos\s+que",
        ),
    },
    "rankings": {
        "return_top": (
            r"mejor\s+(?:valor|comportamiento|desempeño|posición|título)",
            r"el\s+mejor\s+(?:valor|comportamiento|desempeño|posición|título)",
            r"(?:valor|título|posición)\s+(?:más\s+alcista|que\s+más\s+subió)",
            r"el\s+(?:valor|título|posición)\s+(?:más\s+alcista|que\s+más\s+subió)",
            r"lideró\s+(?:las\s+)?(?:subidas|alzas|ganancias|la\s+cartera)",
        ),
        "return_bottom": (
            r"peor\s+(?:valor|comportamiento|desempeño|posición|título)",
            r"el\s+peor\s+(?:valor|comportamiento|desempeño|posición|título)",
            r"(?:valor|título|posición)\s+(?:más\s+bajista|que\s+más\s+cayó)",
            r"el\s+(?:valor|título|posición)\s+(?:más\s+bajista|que\s+más\s+cayó)",
            r"lideró\s+(?:las\s+)?(?:caídas|bajadas|pérdidas)",
        ),
        "weight_top": (
            r"mayor\s+(?:posición|participación|tenencia|peso)",
            r"la\s+mayor\s+(?:posición|participación|tenencia|peso)",
            r"posición\s+más\s+grande",
            r"la\s+posición\s+más\s+grande",
        ),
        "pnl_top": (
            r"mayor\s+(?:contribuidor|aporte|contribución)",
            r"el\s+mayor\s+(?:contribuidor|aporte|contribución)",
        ),
        "pnl_bottom": (
            r"mayor\s+(?:lastre|detractor)",
            r"el\s+mayor\s+(?:lastre|detractor)",
        ),
    },
    "streaks": {
        "up": (
            r"(?:sesiones|días|jornadas)\s+(?:consecutivas?|seguidas?)\s+(?:de\s+)?(?:alza|subida|ganancias?)",
            r"(?:alza|subida|ganancia)\s+(?:consecutiva|seguida)",
            r"racha\s+(?:alcista|ganadora)",
        ),
        "down": (
            r"(?:sesiones|días|jornadas)\s+(?:consecutivas?|seguidas?)\s+(?:de\s+)?(?:baja|caída|pérdidas?)",
            r"(?:baja|caída|pérdida)\s+(?:consecutiva|seguida)",
            r"racha\s+(?:bajista|perdedora)",
        ),
    },
    "counts": (
        ("primera", "primer", "primero", "una", "uno", "un"),
        ("segunda", "segundo", "dos"),
        ("tercera", "tercer", "tercero", "tres"),
        ("cuarta", "cuarto", "cuatro"),
        ("quinta", "quinto", "cinco"),
        ("sexta", "sexto", "seis"),
        ("séptima", "séptimo", "siete"),
        ("octava", "octavo", "ocho"),
        ("novena", "noveno", "nueve"),
        ("décima", "décimo", "diez"),
        ("once",),
        ("doce",),
    ),
}
