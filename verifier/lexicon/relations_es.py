"""Spanish: the words of relations: between subjects (comparisons, rankings, streaks,
the counts they name) and of days to the report date ("yesterday"); spread into the `Lexicon` of `es.py`."""

from typing import Any

_MEASURES = (
    r"(?:contribución|aporte|aportación|rentabilidad(?:\s+del\s+día|\s+diaria)?|"
    r"rendimiento(?:\s+del\s+día|\s+diario)?|variación(?:\s+del\s+día|\s+diaria)?|peso|tamaño|"
    r"p&l|resultado(?:\s+del\s+día)?|valor\s+de\s+mercado)"
)
"""What a place among the positions may be by, as the ranks hold it."""

_ORDINALS = (
    r"(?:primero|primera|primer|segundo|segunda|tercero|tercera|tercer|cuarto|cuarta|quinto|"
    r"quinta|sexto|sexta|séptimo|séptima|octavo|octava|noveno|novena|décimo|décima)",
    r"\d{1,2}\.?[ºª°]",
)
"""An ordinal place, in words and in digits ("tercera", "19.ª", "7.º"): two fragments each, so
that a phrase scan finds each by its literal opening."""

RELATIONS: dict[str, Any] = {
    "absence": {
        "news": (
            r"titular",
            r"titulares",
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
            r"alzas",
            r"subieron",
            r"ganaron",
            r"avanzaron",
            r"(?:posiciones|valores|títulos)\s+(?:subieron|ganaron|avanzaron)",
            r"(?:valores|posiciones|papeles|títulos)\s+(?:al|en)\s+alza",
            r"al\s+alza",
            r"en\s+verde",
        ),
        "decliners": (
            r"bajas",
            r"cayeron",
            r"bajaron",
            r"perdieron",
            r"retrocedieron",
            r"(?:posiciones|valores|títulos)\s+(?:cayeron|bajaron|perdieron|retrocedieron)",
            r"(?:valores|posiciones|papeles|títulos)\s+(?:a\s+la|en)\s+baja",
            r"a\s+la\s+baja",
            r"en\s+rojo",
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
        "today": (r"hoy", r"esta\s+(?:mañana|tarde)"),
        "yesterday": (
            r"ayer",
            r"la\s+(?:sesión|jornada|rueda)\s+anterior",
            r"el\s+día\s+anterior",
            r"antes\s+de\s+(?:la|su|esta|esa)\s+(?:caída|bajada|baja|subida|alza|pérdida|ganancia|"
            r"variación)",
            r"antes\s+del\s+(?:descenso|avance|repunte|retroceso|movimiento|alza)",
        ),
        "year_end": (r"el\s+año", r"fin\s+de\s+año", r"cierre\s+de\s+año", r"cierre\s+del\s+año"),
    },
    "relations": {
        "above": (
            r"mejor\s+que",
            r"lo\s+hizo\s+mejor\s+que",
            r"quedó\s+por\s+encima\s+de(?:l)?",
            r"por\s+encima\s+de(?:l)?",
            r"superior(?:es)?\s+a(?:l)?",
            r"muy\s+superior(?:es)?\s+a(?:l)?",
            r"mayor(?:es)?\s+que",
            r"superó\s+a",
            r"bati(?:ó|eron)\s+(?:a|al)",
            r"superó",
            r"supera\s+a",
            r"supera",
            r"batió\s+a",
            r"batió",
            r"lo\s+hizo\s+mejor\s+que",
            r"por\s+delante\s+de",
            r"(?:subió|ganó)\s+más\s+que",
            r"(?:cayó|perdió)\s+menos\s+que",
            r"más\s+de\s+lo\s+que",
            r"más\s+que",
        ),
        "below": (
            r"peor\s+que",
            r"quedándose\s+por\s+detrás\s+de",
            r"quedó\s+por\s+debajo\s+de",
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
            r"menos\s+de\s+lo\s+que",
            r"menos\s+que",
        ),
    },
    "rankings": {
        "return_top": (
            r"puesto\s+por\s+(?:rentabilidad|rendimiento|variación)\s*[*_]*\s*[:|]\s*[*_]*\s*\d{1,3}(?:\s+de\s+\d{1,3})?",
            r"puesto\s+\d{1,3}(?:\s+de\s+\d{1,3})?\s+por\s+(?:rentabilidad|rendimiento|variación)",
            r"mejor\s+(?:valor|comportamiento|desempeño|posición|título)",
            r"el\s+mejor\s+(?:valor|comportamiento|desempeño|posición|título)",
            r"(?:valor|título|posición)\s+(?:más\s+alcista|que\s+más\s+subió)",
            r"el\s+(?:valor|título|posición)\s+(?:más\s+alcista|que\s+más\s+subió)",
            r"lideró\s+(?:las\s+)?(?:subidas|subas|alzas|ganancias|la\s+cartera)",
            r"(?:la\s+)?estrella",
        ),
        "return_bottom": (
            r"peor\s+(?:valor|comportamiento|desempeño|posición|título)",
            r"el\s+peor\s+(?:valor|comportamiento|desempeño|posición|título)",
            r"(?:valor|título|posición)\s+(?:más\s+bajista|que\s+más\s+cayó)",
            r"el\s+(?:valor|título|posición)\s+(?:más\s+bajista|que\s+más\s+cayó)",
            r"lideró\s+(?:las\s+)?(?:caídas|bajadas|pérdidas)",
        ),
        "weight_top": (
            r"puesto\s+por\s+(?:peso|tamaño|valor)\s*[*_]*\s*[:|]\s*[*_]*\s*\d{1,3}(?:\s+de\s+\d{1,3})?",
            r"(?:primer[oa]?|segund[oa]|tercer[oa]?|cuart[oa]|quint[oa]|sext[oa]|séptim[oa]|octav[oa]|noven[oa]|décim[oa]|\d{1,2}(?:ª|º|\.ª|\.º)?)\s+(?:mayor\s+)?(?:posición|tenencia|participación)(?:\s+de\s+(?:la\s+cartera|p\d{3,}))?\s+por\s+(?:peso|tamaño|valor)",
            r"puesto\s+\d{1,3}(?:\s+de\s+\d{1,3})?\s+por\s+(?:peso|tamaño|valor)",
            r"mayor\s+(?:posición|participación|tenencia|peso)",
            r"la\s+mayor\s+(?:posición|participación|tenencia|peso)",
            r"(?:posición|puesto)\s+(?:número|nº|n\.º)\s+\d{1,3}\s+por\s+(?:peso|tamaño|valor)",
            r"posición\s+más\s+grande",
            r"la\s+posición\s+más\s+grande",
        ),
        "pnl_top": (
            r"puesto\s+por\s+(?:contribución|aporte|resultado)\s*[*_]*\s*[:|]\s*[*_]*\s*\d{1,3}(?:\s+de\s+\d{1,3})?",
            r"(?:posición|valor|título)\s+que\s+más\s+(?:aportó|sumó|contribuyó|aporta|ganó)",
            r"puesto\s+\d{1,3}(?:\s+de\s+\d{1,3})?\s+por\s+(?:contribución|aporte|resultado)",
            r"mayor\s+(?:contribuidor|aporte|contribución)",
            r"(?:segund[oa]|tercer[oa]?|cuart[oa]|quint[oa])\s+mayor\s+(?:contribución|aportación|aporte)",
            r"(?:mayor|mejor)\s+aportación",
            r"el\s+mayor\s+(?:contribuidor|aporte|contribución)",
        ),
        "weight_bottom": (r"posición\s+más\s+pequeña", r"menor\s+posición", r"menor\s+peso"),
        "pnl_bottom": (
            r"(?:posición|valor|título)\s+que\s+más\s+(?:restó|lastró|perdió|resta|quitó)",
            r"peor\s+contribución",
            r"mayor\s+(?:lastre|detractor)",
            r"el\s+mayor\s+(?:lastre|detractor)",
        ),
    },
    "streaks": {
        "up": (
            r"(?:subido|ganado|avanzado|subió|ganó|avanzó|cerrad[oa]\s+(?:al\s+alza|en\s+verde|en\s+positivo))\s+(?:en\s+)?(?:cada|todas\s+las)\s+(?:sesión|sesiones|jornadas?)(?=\s+desde)",
            r"(?:sesiones|días|jornadas|ruedas)\s+(?:consecutivas?|seguidas?)\s+(?:de\s+)?(?:alza|subida|suba|ganancias?)",
            r"(?:alza|subida|suba|ganancia)\s+(?:consecutiva|seguida)",
            r"racha\s+(?:alcista|ganadora)",
            r"(?:sesión|jornada|rueda)\s+(?:consecutiva|seguida)\s+(?:de\s+)?(?:alzas?|subidas?|subas?|ganancias?|al\s+alza|en\s+verde)",
            r"(?:sesiones|jornadas|ruedas)\s+(?:consecutivas|seguidas)\s+(?:de\s+)?(?:alzas?|subidas?|subas?|ganancias?|al\s+alza|en\s+verde)",
            r"(?:sesiones|jornadas|ruedas)\s+(?:al\s+alza|en\s+verde|de\s+subidas|alcistas)(?:\s+(?:seguidas|consecutivas))?",
            r"(?:suma|acumula|lleva|encadena)\s+(?:ya\s+)?(?:\d{1,2}|[a-záéíóú]+)\s+(?:sesiones|jornadas|ruedas)\s+(?:alcistas|al\s+alza|en\s+verde|de\s+subidas)(?:\s+(?:seguidas|consecutivas))?",
            r"lleva(?:n)?\s+(?:ya\s+)?(?:\d{1,2}|[a-záéíóú]+)\s+(?:sesiones|jornadas|ruedas|días)\s+(?:(?:seguidas|consecutivas)\s+)?(?:subiendo|avanzando|ganando)",
        ),
        "down": (
            r"(?:caído|bajado|retrocedido|perdido|cayó|bajó|retrocedió|perdió|cerrad[oa]\s+(?:a\s+la\s+baja|en\s+rojo|en\s+negativo))\s+(?:en\s+)?(?:cada|todas\s+las)\s+(?:sesión|sesiones|jornadas?)(?=\s+desde)",
            r"(?:sesiones|días|jornadas|ruedas)\s+(?:consecutivas?|seguidas?)\s+(?:de\s+)?(?:baja|caída|pérdidas?)",
            r"(?:baja|caída|pérdida)\s+(?:consecutiva|seguida)",
            r"racha\s+(?:bajista|perdedora)",
            r"(?:sesión|jornada|rueda)\s+(?:consecutiva|seguida)\s+(?:de\s+)?(?:caídas?|bajadas?|pérdidas?|a\s+la\s+baja|en\s+rojo)",
            r"(?:sesiones|jornadas|ruedas)\s+(?:consecutivas|seguidas)\s+(?:de\s+)?(?:caídas?|bajadas?|pérdidas?|a\s+la\s+baja|en\s+rojo)",
            r"(?:sesiones|jornadas|ruedas)\s+(?:a\s+la\s+baja|en\s+rojo|de\s+caídas|bajistas)(?:\s+(?:seguidas|consecutivas))?",
            r"(?:suma|acumula|lleva|encadena)\s+(?:ya\s+)?(?:\d{1,2}|[a-záéíóú]+)\s+(?:sesiones|jornadas|ruedas)\s+(?:bajistas|a\s+la\s+baja|en\s+rojo|de\s+caídas)(?:\s+(?:seguidas|consecutivas))?",
            r"lleva(?:n)?\s+(?:ya\s+)?(?:\d{1,2}|[a-záéíóú]+)\s+(?:sesiones|jornadas|ruedas|días)\s+(?:(?:seguidas|consecutivas)\s+)?(?:bajando|cayendo|retrocediendo|perdiendo)",
        ),
        "either": (
            r"(?:suma|acumula|lleva|encadena)\s+(?:ya\s+)?(?:\d{1,2}|[a-záéíóú]+)\s+(?:sesiones|jornadas|ruedas)(?:\s+(?:seguidas|consecutivas))?",
            r"racha(?:\s+actual|\s+en\s+curso)?(?=\s+(?:(?:es|era|está|fue)\s+)?de\s+(?:\d|[a-z]+\s+(?:sesiones|jornadas|ruedas|días)))",
            r"racha(?:\s+actual|\s+en\s+curso)?(?=\s*[*_]*\s*:\s*[*_]*\s*\d)",
        ),
    },
    "membership": {
        "detractors": (
            r"(?:uno\s+de|una\s+de|entre)\s+(?:los|las|sus)\s+(?:(?:\d{1,4}|dos|tres|cuatro|cinco)\s+)?(?:mayores\s+|principales\s+)?(?:lastres|detractores|peores\s+contribuciones)",
            r"(?:uno\s+de|una\s+de|entre)\s+(?:los|las|sus)\s+(?:(?:\d{1,4}|dos|tres|cuatro|cinco)\s+)?(?:valores|títulos|posiciones|papeles|nombres)\s+que\s+más\s+(?:restaron|lastraron|drenaron)",
        ),
        "contributors": (
            r"(?:uno\s+de|una\s+de|entre)\s+(?:los|las|sus)\s+(?:(?:\d{1,4}|dos|tres|cuatro|cinco)\s+)?(?:mayores\s+|principales\s+)?(?:contribuidores|contribuyentes|aportes|contribuciones)",
            r"(?:uno\s+de|una\s+de|entre)\s+(?:los|las|sus)\s+(?:(?:\d{1,4}|dos|tres|cuatro|cinco)\s+)?(?:valores|títulos|posiciones|papeles|nombres)\s+que\s+más\s+(?:aportaron|sumaron|contribuyeron)",
        ),
        "gainers": (
            r"(?:uno\s+de|una\s+de|entre)\s+(?:los|las|sus)\s+(?:(?:\d{1,4}|dos|tres|cuatro|cinco)\s+)?(?:valores\s+|títulos\s+|papeles\s+|posiciones\s+)?(?:que\s+más\s+subieron|más\s+alcistas|más\s+fuertes|mejores)",
            r"(?:uno\s+de|una\s+de|entre)\s+(?:los|las|sus)\s+(?:\d{1,4}\s+)?(?:valores\s+|títulos\s+|papeles\s+|posiciones\s+)?(?:al\s+alza|que\s+subieron|en\s+verde|alcistas)",
        ),
        "decliners": (
            r"(?:uno\s+de|una\s+de|entre)\s+(?:los|las|sus)\s+(?:(?:\d{1,4}|dos|tres|cuatro|cinco)\s+)?(?:valores\s+|títulos\s+|papeles\s+|posiciones\s+)?(?:que\s+más\s+cayeron|más\s+bajistas|más\s+débiles|peores)",
            r"(?:uno\s+de|una\s+de|entre)\s+(?:los|las|sus)\s+(?:\d{1,4}\s+)?(?:valores\s+|títulos\s+|papeles\s+|posiciones\s+)?(?:a\s+la\s+baja|que\s+bajaron|que\s+cayeron|en\s+rojo|bajistas)",
        ),
    },
    "rank_lists": {
        "contributors": (
            r"(?:los|las)\s+que\s+más\s+(?:sumaron|aportaron|ganaron|contribuyeron)",
            r"(?:principales|mayores|mejores)\s+(?:\d\s+|cinco\s+)?(?:contribuidores|aportaciones|aportantes)",
            r"contribuidores",
        ),
        "detractors": (
            r"(?:los|las)\s+que\s+más\s+(?:restaron|lastraron|perdieron|restaron\s+a\s+la\s+cartera)",
            r"(?:principales|mayores|peores)\s+(?:\d\s+|cinco\s+)?(?:lastres|detractores)",
            r"detractores",
            r"lastres",
        ),
        "gainers": (
            r"(?:mejores|mayores)\s+(?:valores|subidas|subas|alzas)",
            r"(?:valores|títulos)\s+que\s+más\s+subieron",
        ),
        "decliners": (
            r"peores\s+valores",
            r"(?:mayores)\s+(?:caídas|bajadas)",
            r"(?:valores|títulos)\s+que\s+más\s+cayeron",
        ),
        "first_contributors": (
            r"(?:mayor|principal|mejor)\s+contribuidor",
            r"(?:el|la)\s+que\s+más\s+(?:sumó|aportó|ganó|contribuyó)",
        ),
        "first_detractors": (
            r"(?:mayor|principal|peor)\s+(?:lastre|detractor)",
            r"(?:el|la)\s+que\s+más\s+(?:restó|lastró|perdió)",
        ),
    },
    "list_lead": (
        r"(?:encabeza|encabezó|encabezan|lidera|lideró|liderando|encabezando)(?:\s+(?:la|los|las))?",
    ),
    "relation_lead": (
        r"(?:encadena|encadenó|encadenaba|acumula|acumuló|acumulaba|suma|sumó|sumaba|lleva|llevaba)",
        r"(?:por|es\s+(?:su|la)|fue\s+(?:su|la)|marca|marcó)",
        r"(?:se\s+sitúa|se\s+situó|figura|figuró|queda|quedó|ocupa|ocupó|ocupaba)(?:\s+(?:como|en|el))?",
    ),
    "qualities": {
        "size_small": (
            r"(?:pequeñ[oa]|escas[oa]|reducid[oa]|modest[oa])\s+(?:peso|posición|participación|ponderación)",
            r"(?:peso|posición|participación|ponderación)\s+(?:pequeñ[oa]|reducid[oa]|modest[oa])",
        ),
        "size_large": (
            r"(?:gran|grande|importante)\s+(?:peso|posición|participación|ponderación)",
        ),
        "up_over_double": (
            r"más\s+que\s+duplicad[oa](?:\s+su\s+valor)?",
            r"más\s+que\s+duplic(?:ó|a|ar|ado)(?:\s+su\s+valor)?",
        ),
        "up_double": (r"duplicad[oa](?:\s+su\s+valor)?", r"duplicó(?:\s+su\s+valor)?"),
        "down_large": (
            r"(?:fuerte|fuertes|gran|abrupt[oa]|brusc[oa]|pronunciad[oa]|sever[oa])\s+(?:caída|caídas|bajada|descenso|retroceso|pérdida|pérdidas|desplome|corrección)",
            r"(?:caída|bajada|descenso|retroceso|pérdida|corrección)\s+(?:fuerte|abrupta|brusca|pronunciada|importante|severa|notable)",
        ),
        "up_large": (
            r"(?:fuerte|fuertes|gran|espectacular|notable)\s+(?:subida|suba|alza|ganancia|ganancias|avance|repunte|revalorización|racha)",
            r"(?:subida|suba|alza|avance|repunte|revalorización)\s+(?:fuerte|notable|espectacular|importante)",
        ),
        "up_modest": (
            r"(?:modest[oa]|moderad[oa])\s+(?:subida|suba|alza|ganancia|avance|repunte|mejora)",
            r"(?:subida|suba|alza|ganancia|avance|repunte|mejora)\s+(?:modest[oa]|moderad[oa])",
        ),
        "down_modest": (
            r"(?:modest[oa]|moderad[oa])\s+(?:caída|bajada|descenso|retroceso|pérdida|baja)",
            r"(?:caída|bajada|descenso|retroceso|pérdida|baja)\s+(?:modest[oa]|moderad[oa])",
        ),
        "down_small": (
            r"(?:ligera|leve|pequeña|suave)\s+(?:caída|bajada|descenso|retroceso|pérdida|baja)",
            r"(?:caída|bajada|descenso|retroceso|pérdida)\s+(?:ligera|leve|pequeña|suave)",
        ),
        "up_small": (
            r"(?:ligera|leve|pequeña|suave)\s+(?:subida|suba|alza|ganancia|avance|repunte|mejora)",
            r"(?:subida|suba|alza|ganancia|avance|repunte|mejora)\s+(?:ligera|leve|pequeña|suave)",
        ),
        "either_flat": (
            r"(?:se\s+)?(?:queda|quedó|quedaba|mantiene|mantuvo)\s+(?:prácticamente\s+)?plan[oa]",
            r"(?:prácticamente|casi|básicamente|virtualmente)\s+(?:plan[oa]|sin\s+cambios|estable)",
            r"plan[oa]",
            r"sin\s+apenas\s+cambios",
        ),
        "either_large": (
            r"con\s+fuerza",
            r"bruscamente",
            r"abruptamente",
            r"se\s+(?:desplom(?:ó|a|aron|an)|hund(?:ió|e|ieron|en))",
            r"(?:cayó|cae|bajó|baja)\s+en\s+picado",
            r"se\s+disparó",
            r"se\s+dispara(?:ron|n)?",
        ),
        "either_modest": (r"modest[oa]", r"moderad[oa]", r"moderadamente"),
        "either_small": (
            r"(?:su\s+)?impacto(?:\s+en\s+la\s+cartera)?\s+(?:fue|es|resultó)\s+(?:mínimo|escaso|reducido|limitado|pequeño)",
            r"(?:mínimo|escaso|pequeño|reducido|limitado)\s+impacto",
            r"ligeramente",
            r"levemente",
            r"apenas\s+(?:se\s+)?(?:movió|mueve|movía|varió|cambió|cedió|avanzó|subió|bajó|cayó|retrocedió)",
            r"(?:subió|bajó|cayó|ganó|perdió|avanzó|retrocedió|cedió)\s+(?:solo|sólo|apenas)(?=\s+(?:un\s+)?[-+−]?\d)",
            r"ligera",
            r"leve",
            r"pequeñ[oa]",
            r"(?:sesión|jornada|rueda)\s+tranquila",
            r"discret[oa]",
            r"contenid[oa]",
        ),
        "day_up": (
            r"respiro",
            r"rebote",
            r"rebotó",
            r"se\s+recuper(?:ó|a)",
        ),
        "day_down": (r"cedió\s+terreno",),
        "down_any": (
            r"(?:racha|semana|mes|jornada|sesión|rueda|trimestre|año|etapa|periodo|período)\s+(?:floj[oa]|mal[oa]|difícil|débil|negativ[oa]|complicad[oa])",
            r"(?:mal[oa]|difícil|complicad[oa]|floj[oa])\s+(?:racha|semana|mes|jornada|sesión|rueda|trimestre|año)",
            r"floj[oa]",
            r"debilidad",
        ),
        "up_any": (
            r"(?:racha|semana|mes|jornada|sesión|rueda|trimestre|año|etapa)\s+(?:fuerte|buen[oa]|sólid[oa]|positiv[oa])",
            r"(?:buen[oa]|gran)\s+(?:racha|semana|mes|jornada|sesión|rueda|trimestre|año)",
            r"sólid[oa]",
            r"fuerte",
            r"fortaleza",
        ),
    },
    "degrees": {
        "small": (r"ligeramente", r"levemente", r"apenas", r"algo", r"un\s+poco"),
        "large": (
            r"holgadamente",
            r"claramente",
            r"muy",
            r"mucho",
            r"bastante",
            r"ampliamente",
            r"netamente",
            r"con\s+holgura",
        ),
    },
    "runner_up": {
        "second": (
            r"(?:solo|sólo)\s+por\s+detrás\s+de",
            r"(?:solo|sólo)\s+superad[oa]\s+(?:como\s+[\wáéíóú]+\s+)?por",
            r"(?:solo|sólo)\s+detrás\s+de",
        ),
        "first": (
            r"(?:el|la)\s+(?:mayor|más\s+alt[oa])\s+de\s+(?:toda\s+)?la\s+cartera",
            r"más\s+que\s+(?:ningún|ninguna)\s+otr[oa](?:\s+(?:valor|posición|título))?",
        ),
        "last": (r"(?:el|la)\s+(?:menor|peor|más\s+baj[oa])\s+de\s+(?:toda\s+)?la\s+cartera",),
        "behind": (r"por\s+detrás\s+de", r"detrás\s+de", r"tras"),
        "place": (
            r"puesto\s+\d{1,3}\s*(?:/|de)\s*\d{1,3}(?!\s+por)",
            r"(?:(?:(?:ocupa|ocupó|está\s+en|se\s+sitúa\s+en|queda\s+en)\s+(?:el\s+|la\s+)?)?"
            rf"(?:puesto|posición|lugar)\s+)?(?:por|en)\s+(?:su\s+|la\s+|el\s+)?{_MEASURES}"
            r"(?:\s+(?:en|dentro\s+de)\s+la\s+cartera)?,?\s*[:=]?"
            r"\s*(?:el\s+)?(?:puesto\s+)?#?\d{1,3}\s*(?:/|de)\s*\d{1,3}",
            r"(?<=[,y]\s)\d{1,2}(?:\.?[ºª°])?\s+por\s+(?:rentabilidad|rendimiento|resultado|contribución|aporte|peso|tamaño|p&l)(?!\w)",
            r"(?:contribución|aporte|rentabilidad|rendimiento|peso|p&l)\s*[:=]?\s*(?:puesto\s+)?#?\d{1,3}\s*(?:/|de)\s*\d{1,3}",
            r"\(\s*(?:puesto\s+\d{1,2}(?:\.?[ºª°])?|\d{1,2}\.?[ºª°])(?:\s+de\s+\d{1,3})?(?:\s+por\s+(?:p&l|contribución|aporte|peso|rentabilidad|rendimiento|tamaño))?\s*\)",
            r"\d{1,2}\.?[ºª°]\s+de\s+\d{1,3}(?=\s+por\s)",
            r"(?:se\s+sitúa|se\s+situó|ocupa|ocupó|queda|quedó|figura)\s+(?:en\s+)?(?:el\s+)?"
            r"(?:(?:puesto|lugar|número|posición)\s+)?\d{1,2}(?![.,]\d)\s*(?:\.?\s*[ºo°]|\.?\s*er)?(?:\s+(?:lugar|puesto))?"
            r"(?:\s+(?:de|entre)\s+(?:las\s+|los\s+|sus\s+)?\d{1,3}(?:\s+(?:posiciones|valores|títulos))?)?",
            # an ordinal place, its measure said by its words, its line or the figure before it
            # ("19.ª posición de 25", "el 7.º de 25 posiciones por tamaño", "tercera posición")
            *(
                rf"{o}\s+(?:(?:posición|puesto|lugar)\s+)?(?:de|entre)\s+(?:las\s+|los\s+|sus\s+)?"
                r"\d{1,3}(?:\s+(?:posiciones|valores|títulos))?"
                for o in _ORDINALS
            ),
            *(rf"(?:el|la)\s+{o}\s+de\s+la\s+cartera(?=\s+por\s)" for o in _ORDINALS),
        ),
    },
    "news_terms": {
        "chief financial officer": (
            r"director(?:a)?\s+financier[oa]",
            r"jef[ea]\s+financier[oa]",
            r"cfo",
        ),
        "chief executive": (
            r"consejer[oa]\s+delegad[oa]",
            r"director(?:a)?\s+ejecutiv[oa]",
            r"ceo",
            r"presidente\s+ejecutivo",
        ),
        "resigns": (r"dimisión", r"dimite", r"dimitió", r"renuncia", r"renunció", r"salida"),
        "names": (
            r"nombramiento",
            r"nombra",
            r"nombró",
            r"design(?:a|ó|ación)",
            r"nuev[oa]",
            r"fichaje",
        ),
        "files": (r"presentación", r"present(?:a|ó)", r"registro"),
        "prices offering": (r"emisión", r"emite", r"emitió", r"colocación", r"coloca", r"oferta"),
        "notes": (r"bonos", r"deuda", r"pagarés", r"notas"),
        "senior": (
            r"senior",
            r"preferente",
        ),
        "share buyback program": (r"recompra", r"recompras"),
        "share": (r"acciones", r"acción"),
        "program": (r"programa", r"plan"),
        "quarterly": (r"trimestral", r"trimestrales", r"del\s+trimestre"),
        "eps": (r"bpa", r"beneficio\s+por\s+acción"),
        "reports": (r"informe", r"publica", r"publicó", r"comunica"),
        "annual report": (r"anual", r"informe\s+anual"),
        "sec": (r"sec", r"regulador(?:es)?"),
        "launches": (r"lanz(?:a|ó|amiento)", r"present(?:a|ó|ación)"),
        "product line": (r"productos?", r"línea", r"gama"),
        "updated": (r"actualizad[oa]", r"renovad[oa]"),
        "opens research center": (
            r"abre",
            r"abrió",
            r"apertura",
            r"inaugur(?:a|ó|ación)",
            r"centro",
            r"investigación",
            r"i\+d",
        ),
        "schedules earnings call": (
            r"convoc(?:a|ó|ará)",
            r"conferencia(?:\s+trimestral)?\s+de\s+resultados",
            r"llamada",
        ),
        "investor conference": (
            r"inversores",
            r"conferencia(?!\s+(?:trimestral|de\s+resultados))",
            r"present(?:a|ará|ó|ación)",
            r"sector",
            r"sectorial",
            r"industria",
        ),
        "dividend": (r"dividendo",),
        "declares": (r"declar(?:a|ó|ación)", r"anunci(?:a|ó)"),
        "expands partnership distributor": (
            r"ampl(?:ía|ió|iación)",
            r"alianza",
            r"asociación",
            r"distribuidor(?:a|es)?",
            r"regional",
        ),
        "signs supply agreement": (
            r"firm(?:a|ó)",
            r"acuerdo",
            r"contrato",
            r"suministro",
            r"plurianual",
        ),
        "receives regulatory approval facility": (
            r"recib(?:e|ió)",
            r"aprobación",
            r"regulatoria",
            r"instalación",
            r"planta",
        ),
        "completes acquisition": (
            r"complet(?:a|ó)",
            r"cierra",
            r"cerró",
            r"adquisición",
            r"compra",
        ),
        "publishes sustainability report": (r"sostenibilidad",),
        "analysts reiterate neutral rating": (
            r"analistas",
            r"reiter(?:an|aron|a)",
            r"neutral",
            r"calificación",
            r"recomendación",
        ),
    },
    "news_nouns": (
        r"noticias?",
        r"titular",
        r"titulares",
        r"informó",
        r"informa",
        r"publicó",
        r"publica",
        r"anunci(?:ó|a|o)",
        r"comunicado",
        r"artículo",
        r"salieron",
        r"recogió",
    ),
    "news_claims": {
        "latest": (
            r"(?:última|último|más\s+reciente)(?:\s+(?:titular|titulares|noticias?|notas?|eventos?|citas?|entradas?))?(?:\s+(?:es|era|fue|data))?(?:\s+(?:del?|el))?",
        ),
        "recent": (r"recientes?", r"recientemente"),
        "cause": (
            r"expli(?:que|quen|ca|can|car)(?:\s+(?:el\s+movimiento|la\s+caída|la\s+subida))?",
            r"(?:catalizador|motivo|detonante)(?:\s+(?:claro|evidente|obvio))?",
        ),
        "clear": (
            r"(?:calendario|agenda)(?:\s+[\wáéíóú]+){0,3}?\s+(?:está|estaba|queda|sigue)\s+(?:vacío|vacía|despejad[oa]|libre|en\s+blanco)",
            r"(?:calendario|agenda)\s+(?:vacío|vacía|despejad[oa]|libre)",
            r"(?:calendario|agenda)(?:\s+de\s+eventos|\s+corporativ[oa]|\s+de\s+[a-z]{1,5})?[*_]*\s*[:—–|-]\s*[*_]*\s*(?:vacío|vacía|despejad[oa]|libre|ninguno|nada|sin\s+eventos)(?!\w)",
        ),
        "one": (
            r"(?:encontré|encontramos|encontró|hubo|apareció|aparece|devolvió|arrojó)\s+(?:solo\s+|solamente\s+|apenas\s+)?(?:un|una)\s+(?:única\s+|sola\s+)?(?:titular|noticia|resultado|artículo)(?!s)",
            r"(?:únic[oa]|un\s+solo|una\s+sola)\s+(?:[\wáéíóú]+\s+)?(?:titular|titulares|noticias?|notas?|eventos?|citas?|entradas?)(?:\s+recientes?)?",
            r"(?:un|una)\s+únic[oa]\s+(?:titular|titulares|noticias?|notas?|eventos?|citas?|entradas?)",
            r"(?:solo|sólo|solamente)\s+(?:hay|hubo)\s+(?:un|una)\s+(?:titular|noticia)(?!s)",
            r"(?:titular|titulares|noticias?|notas?|eventos?|citas?|entradas?)\s+únic[oa]",
        ),
        "some": (
            r"hubo\s+(?:algunas\s+|varias\s+)?(?:noticias|titulares)(?=\s*[.;,!]|\s+(?:en|sobre|de|para)\s)",
            r"hay\s+(?:algunas\s+|varias\s+)?(?:noticias|titulares)(?=\s*[.;,!]|\s+(?:en|sobre|de|para)\s)",
            r"salió\s+(?:un|una)\s+(?:titular|noticia)",
            r"hay\s+(?:un|una)\s+(?:titular|noticia)(?=\s*[.;!])",
            r"(?:devolvió|arrojó|dio|encontró)\s+(?:algunos\s+|varios\s+)?resultados",
            r"(?:búsqueda|consulta)(?:\s+de\s+noticias)?\s+(?:devolvió|arrojó|dio|encontró)\s+(?:algunos\s+|varios\s+|solo\s+)?(?:titulares|noticias)(?!\w)",
            r"(?:encontré|encontramos)\s+(?:algunas\s+|varias\s+)?(?:noticias|titulares)",
            r"(?:se\s+encontraron|aparecieron|salieron)\s+(?:algunas\s+|varias\s+)?(?:noticias|titulares)",
        ),
        "two": (
            r"(?:dos|ambos|ambas)\s+(?:titular|titulares|noticias?|notas?|eventos?|citas?|entradas?)",
        ),
        "three": (r"tres\s+(?:titular|titulares|noticias?|notas?|eventos?|citas?|entradas?)",),
        "labelled": (
            r"(?:(?:número|cantidad)\s+de\s+)?(?:titulares|noticias|artículos|notas|eventos|citas)(?:\s+(?:encontrad[oa]s|hallad[oa]s|en\s+la\s+ventana|en\s+el\s+período|en\s+agenda|programad[oa]s))*[ \t]*(?:\*\*)?[ \t]*[:=][ \t]*(?:\*\*)?[ \t]*\d{1,2}(?![\d%]|[.,]\d|[.)][ \t])",
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
