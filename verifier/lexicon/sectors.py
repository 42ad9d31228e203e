"""The eleven GICS sectors as a Spanish draft names them: a result's `sector` ("Consumer
Staples") is a name the draft may use as it stands, or in Spanish ("consumo básico"). The words
of a sector's Spanish names are free only in a draft whose trace names that sector
(`verifier.coverage.name_words`)."""

from __future__ import annotations

SECTORS_ES: dict[str, tuple[str, ...]] = {
    "energy": ("energía", "energético"),
    "materials": ("materiales", "materias primas", "materiales básicos"),
    "industrials": ("industria", "industriales", "bienes industriales", "industrial"),
    "consumer discretionary": ("consumo discrecional", "consumo cíclico", "consumo no básico"),
    "consumer staples": ("consumo básico", "bienes de consumo básico", "primera necesidad"),
    "health care": ("salud", "sanidad", "atención sanitaria", "sanitario"),
    "financials": ("financiero", "finanzas", "servicios financieros", "financieras"),
    "information technology": (
        "tecnología",
        "tecnologías de la información",
        "tecnología de la información",
        "tecnológico",
    ),
    "communication services": (
        "servicios de comunicación",
        "comunicaciones",
        "telecomunicaciones",
        "servicios de comunicaciones",
    ),
    "utilities": ("servicios públicos", "suministros", "utilities", "eléctricas"),
    "real estate": ("inmobiliario", "bienes raíces", "inmobiliarias", "sector inmobiliario"),
}


def sector_words() -> frozenset[str]:
    """Every word of a sector's name in either language: a fact about a company, never a
    label's free word ("**Sector industrial:**" says which sector)."""
    names = [*SECTORS_ES, *(es for names in SECTORS_ES.values() for es in names)]
    words = {word for name in names for word in name.split()}
    return frozenset(words - _COMMON)


_COMMON = frozenset(
    {"de", "la", "no", "sector", "services", "servicios", "primera", "real", "información"}
    | {"information", "atención", "bienes", "necesidad"}
)
"""Words of sectors' names that other phrases use as much."""
