"""The words of a message's frame, as data: how a note greets, opens, hands over and signs off.

They assert nothing about the market, a position, a portfolio, a time or an event, so the
closed world may leave them unbound, but only in the shape they frame a message with
(`verifier/framing.py`): a greeting opens the draft, a closing and its signature end it, and a
name stands free only in those two slots. Entries are regex fragments of the case-folded text.
"""

from __future__ import annotations

GREETINGS = (
    # English
    r"hi",
    r"hello",
    r"hey",
    r"dear",
    r"greetings",
    r"good\s+(?:morning|afternoon|evening|day)",
    r"(?:team|all|everyone|folks)(?=\s*[,:])",
    r"morning",
    # Spanish
    r"sure(?:\s+thing)?",
    r"of\s+course",
    r"certainly",
    r"absolutely",
    r"(?:great|good)\s+question",
    r"thanks\s+for\s+(?:asking|the\s+question)",
    r"hola",
    r"claro(?:\s+que\s+sí)?",
    r"por\s+supuesto",
    r"desde\s+luego",
    r"(?:buena|excelente)\s+pregunta",
    r"con\s+(?:mucho\s+)?gusto",
    r"buenas",
    r"(?:equipo|todos|todas)(?=\s*[,:])",
    r"buen\s+día",
    r"buenos\s+días",
    r"buenas\s+(?:tardes|noches)",
    r"estimad[oa]s?",
    r"querid[oa]s?",
    r"apreciad[oa]s?",
    r"distinguid[oa]s?",
)
"""What opens a salutation ("Hi Daniel,", "Dear client,", "Estimado cliente:", "Hola!")."""

ADDRESSEES = (
    r"all",
    r"valued",
    r"esteemed",
    r"respected",
    r"my",
    r"everyone",
    r"team",
    r"there",
    r"clients?",
    r"investors?",
    r"sir",
    r"madam",
    r"colleagues?",
    r"mr",
    r"mrs",
    r"ms",
    r"dr",
    r"and",
    r"or",
    r"o",
    r"a",
    r"todos",
    r"todas",
    r"equipo",
    r"clientes?",
    r"clientas?",
    r"inversor(?:es|a|as)?",
    r"señor(?:es|a|as)?",
    r"sr",
    r"sra",
    r"don",
    r"doña",
    r"colegas?",
    r"y",
)
"""Words of whom a salutation addresses, beside names written with a capital."""

SIGNERS = [
    "your",
    "the",
    "our",
    "of",
    "and",
    "team",
    "desk",
    "office",
    "group",
    "advisory",
    "wealth",
    "management",
    "research",
    "investment",
    "investments",
    "client",
    "clients",
    "services",
    "private",
    "banking",
    "relations",
    "coverage",
    "portfolio",
    "portfolios",
    "reporting",
    "reports",
    "operations",
    "analytics",
    "markets",
    "tu",
    "su",
    "vuestro",
    "nuestro",
    "nuestra",
    "equipo",
    "de",
    "del",
    "la",
    "el",
    "y",
    "mesa",
    "gestión",
    "patrimonial",
    "banca",
    "privada",
    "inversiones",
    "inversión",
    "asesoría",
    "asesoramiento",
    "análisis",
    "clientes",
    "servicios",
    "cartera",
    "carteras",
    "informes",
    "mercados",
]
"""Words of whom a signature signs for, beside names written with a capital."""

CLOSINGS = (
    # English
    r"(?:with\s+)?(?:best|kind|warm|warmest|kindest)\s+regards",
    r"regards",
    r"best(?:\s+wishes)?",
    r"all\s+the\s+best",
    r"cheers",
    r"thanks(?:\s+again)?",
    r"thank\s+you",
    r"many\s+thanks",
    r"sincerely",
    r"(?:yours\s+)?(?:sincerely|truly|faithfully)(?:\s+yours)?",
    r"talk\s+soon",
    r"cordially",
    r"respectfully",
    r"warmly",
    r"take\s+care",
    r"atte?\.?",
    r"speak\s+soon",
    # Spanish
    r"(?:un\s+)?saludos?(?:\s+cordiales)?",
    r"un\s+(?:cordial\s+)?saludo(?:\s+cordial)?",
    r"atentamente",
    r"cordialmente",
    r"un\s+abrazo",
    r"abrazos",
    r"gracias",
    r"muchas\s+gracias",
    r"quedo\s+(?:a\s+(?:tu|su|vuestra)\s+disposición|atent[oa])",
    r"reciba\s+un\s+cordial\s+saludo",
)
"""A sign-off: a line of its own near the end, followed only by its signature."""

PHRASES = (
    # handing over: "Here's how AXO finished", "A quick note on", "Te paso lo de AXO"
    r"here(?:'s|’s|\s+is|\s+are)\s+(?:how|what|where|the\s+(?:latest|rundown|summary|update))",
    r"(?:a\s+quick|a\s+brief|a\s+short|quick|brief|short)\s+(?:note|read|take|update|look|recap|"
    r"summary|word|check)"
    r"(?:\s+(?:on|about|for))?",
    r"(?:dato|nota|apunte|resumen|repaso)\s+(?:rápid[oa]|breve)",
    r"(?:te|le|les|os)\s+(?:paso|pasamos|dejo|dejamos|cuento|contamos|resumo|resumimos|comparto|"
    r"compartimos|escribo|escribimos|informo|informamos|comunico|comunicamos|envío|enviamos|"
    r"aviso|avisamos)"
    r"(?:\s+(?:de\s+)?que)?",
    r"(?:just\s+wanted\s+to|wanted\s+to|a\s+note\s+to)\s+(?:let\s+you\s+know|flag|update\s+you)"
    r"(?:\s+(?:that|on))?",
    r"here\s+you\s+go",
    r"(?:aquí|acá)\s+(?:lo\s+|la\s+|los\s+|las\s+)?(?:tienes|tiene|tenéis|va|van)",
    r"(?:bottom\s+line|in\s+a\s+nutshell|the\s+short\s+version|short\s+answer|tl;\s*dr)",
    r"(?:en\s+pocas\s+palabras|en\s+definitiva|resumiendo|en\s+breve)",
    r"(?:qué\s+tal|cómo\s+estás|cómo\s+está|how\s+are\s+you)",
    r"(?:i\s+hope|hope)\s+you(?:'re|’re|\s+are)\s+(?:well|doing\s+well)",
    r"espero\s+que\s+(?:estés|esté|estéis)\s+bien",
    # a note's labels: "Re: AXO", "Subject:", "FYI:", "Heads up:", "Nota:", "Puntos clave:"
    r"(?:re|fwd|fw|subject|asunto|context|contexto|nota|note|breve|actualización|update)(?=\s*:)",
    r"(?:fyi|heads\s+up|at\s+a\s+glance|in\s+brief|p\.\s?s\.?)",
    r"reference(?=[\s*_]*:)",
    r"(?:performance\s+)?attribution(?=\s+(?:for|of)\s)",
    r"(?:daily|weekly|market|end[-\s]of[-\s]day|closing)\s+(?:wrap|recap|summary|update|note)",
    r"(?:puntos?|ideas?|datos?)\s+clave",
    r"lo\s+(?:esencial|principal|importante)(?=\s*:)",
    # answering what was asked: "As requested,", "Como pediste,", "En respuesta a tu pregunta:"
    r"as\s+(?:requested|asked)",
    r"per\s+your\s+(?:question|request)",
    r"you\s+asked\s+(?:for|about)",
    r"(?:to\s+answer\s+your\s+question|short\s+answer|the\s+answer)",
    r"como\s+(?:pediste|pidió|pidieron|solicitaste|solicitó|me\s+pediste)",
    r"en\s+respuesta\s+a\s+(?:tu|su|vuestra)\s+(?:pregunta|consulta)",
    r"respuesta\s+(?:corta|breve|rápida)",
    r"thanks\s+for\s+reading",
    r"that(?:'s|’s|\s+is)\s+all(?:\s+for\s+(?:now|today))?",
    r"eso\s+es\s+todo(?:\s+por\s+ahora)?",
    # a regulator's lines: what the message is not (advice, a recommendation, a promise)
    r"(?:this\s+is\s+)?not\s+(?:investment|financial|tax)\s+advice",
    r"(?:this\s+is\s+)?not\s+a\s+recommendation(?:\s+to\s+(?:buy|sell|hold|buy\s+or\s+sell))?",
    r"(?:does\s+not|doesn't|doesn’t)\s+constitute\s+(?:investment|financial)\s+advice"
    r"(?:\s+or\s+a\s+recommendation)?",
    r"past\s+performance\s+is\s+(?:not|no)\s+(?:a\s+)?(?:guarantee|indication|indicative|guide)\s+"
    r"(?:of|to)\s+future\s+(?:results|returns|performance)",
    r"(?:las\s+)?(?:rentabilidades|resultados)\s+pasad[oa]s\s+no\s+(?:garantizan|son\s+garantía\s+de)"
    r"\s+(?:rentabilidades|resultados)\s+futur[oa]s",
    r"no\s+constituye\s+(?:una\s+)?(?:recomendación|asesoramiento)(?:\s+(?:de\s+inversión|"
    r"financiero))?",
    r"(?:esto\s+)?no\s+es\s+(?:una\s+)?recomendación(?:\s+de\s+inversión)?",
    r"(?:please\s+)?(?:remember|note|keep\s+in\s+mind)(?:\s+that)?(?=\s+this\s+is\s+not\s)",
    r"(?:recuerda|recuerde|ten\s+en\s+cuenta)(?:\s+que)?(?=\s+esto\s+no\s+es\s)",
    r"(?:this\s+is\s+)?(?:for\s+)?informational(?:\s+purposes)?\s+only",
    r"past\s+performance\s+(?:does\s+not|doesn't|doesn’t)\s+guarantee\s+future\s+"
    r"(?:results|returns|performance)",
    r"correlation\s+(?:is\s+not|isn't|isn’t|does\s+not\s+(?:imply|mean))\s+causation",
    r"(?:the\s+)?(?:timing|proximity|sequence|coincidence|correlation)\s+alone\s+(?:does\s+not|doesn't|"
    r"doesn’t|can't|can’t|cannot|won't|won’t)\s+(?:prove|establish|show|imply|confirm)\s+(?:a\s+)?"
    r"(?:cause|causation|causality|causal\s+(?:link|relationship))",
    r"(?:it(?:'s|’s|\s+is)\s+)?worth\s+being\s+careful(?:\s+here)?",
    r"as\s+far\s+as\s+(?:the|our|my)\s+(?:available\s+)?(?:data|calendar|results?|tools?|records?|feed)"
    r"\s+(?:shows?|goes|go|tells?\s+us|can\s+tell)",
    r"this\s+is\s+(?:a|only\s+a|just\s+a|merely\s+a)\s+description\s+of\s+the\s+(?:recorded\s+)?"
    r"(?:move|data|figures|results|price\s+move)",
    # a cause disclaimed in a desk's words: "no causal attribution made", "causalidad n/d"
    r"no\s+causal\s+(?:relationship|link|attribution|claim)(?:\s+[\w-]+){0,8}?\s+(?:is\s+|was\s+)?"
    r"(?:asserted|made|established|implied|drawn)",
    r"no\s+causal\s+attribution(?:\s+made)?",
    r"no\s+causal\s+link\s+(?:stated|established|implied|claimed|shown)",
    r"sin\s+vínculo\s+causal\s+(?:confirmado|establecido|demostrado)",
    r"por\s+lo\s+que\s+cualquier\s+relación\s+debe\s+tomarse\s+como\s+no\s+confirmada",
    r"driver\s+(?:unconfirmed|not\s+confirmed|unknown)",
    r"causality\s*:?\s*n/?[ae]",
    r"causalidad\s*:?\s*n/?[de]",
    r"(?:sin|no\s+hay)\s+atribución\s+causal",
    r"relación\s+causal\s*:\s*no\s+(?:acreditada|establecida|demostrada)",
    r"(?:la\s+)?correlación\s+no\s+(?:es|implica)\s+(?:causa|causalidad|causación)",
    r"(?:keep|bear)\s+in\s+mind(?:\s+that)?",
    r"do\s+note(?:\s+that)?",
    r"(?:ten|tenga|tengan)\s+en\s+cuenta(?:\s+que)?",
    # a letter's and an app's set phrases in Spanish
    r"muy\s+señor(?:a)?\s+(?:nuestro|nuestra|mío|mía)",
    r"distinguid[oa]s?\s+client[ea]s?",
    r"sin\s+otro\s+particular",
    r"(?:le|les)\s+saluda(?:n|mos)?\s+atentamente",
    r"(?:te|le|les|os)\s+(?:contamos|cuento)(?:\s+más(?:\s+(?:mañana|pronto|luego|cuando\s+pase))?)?",
    r"seguimos\s+atent[oa]s",
    r"quedamos\s+a\s+(?:su|tu|vuestra)\s+(?:entera\s+)?disposición"
    r"(?:\s+para\s+(?:cualquier|cualesquiera)\s+(?:consulta|aclaración|duda)s?)?",
    r"no\s+dude(?:s)?\s+en\s+(?:contactarnos|consultarnos|ponerse\s+en\s+contacto(?:\s+con\s+nosotros)?)",
    r"nota\s+(?:informativa|revisada(?:\s+por\s+(?:el\s+área\s+de\s+)?cumplimiento)?)",
    r"revisad[oa]\s+por\s+(?:el\s+área\s+de\s+)?cumplimiento",
    r"fin(?:\s+del\s+hilo)?(?=\s*(?:[.!]|$|[^\w\s]))",
    r"hilo(?:\s+corto)?(?=\s*(?:[.:!]|$|[^\w\s]))",
    # a letter's and a compliance office's set phrases in English
    r"(?:please\s+)?(?:do\s+not|don't|don’t)\s+hesitate\s+to\s+(?:contact|reach\s+out\s+to|"
    r"get\s+in\s+touch\s+with)\s+(?:us|me|your\s+(?:advisor|adviser|relationship\s+manager|banker))",
    r"(?:we|i)\s+(?:remain|are|am)\s+at\s+your\s+(?:disposal|service)"
    r"(?:\s+for\s+(?:any\s+)?(?:further|additional)\s+(?:information|questions))?",
    r"(?:we|i)\s+(?:wish|would\s+like)\s+to\s+inform\s+you(?:\s+that)?",
    r"(?:we\s+are|i\s+am)\s+writing\s+to\s+(?:update|inform)\s+you(?:\s+(?:on|about|that))?",
    r"(?:as\s+(?:of|at)\s+)?the\s+date\s+of\s+this\s+(?:letter|note|message)",
    r"(?:a\s+)?la\s+fecha\s+de\s+esta\s+(?:carta|nota|comunicación)",
    r"(?:we\s+have|i\s+have|hemos|he)\s+(?:reviewed|checked|revisado|consultado)",
    r"(?:compliance[-\s]reviewed|reviewed\s+(?:and\s+approved\s+)?by\s+compliance)",
    r"ojo(?=\s*[:,!]|\s+con\s)",
    r"o\s+sea",
    # connectives that open on a negation word ("sin", "no"): a phrase of their own
    r"sin\s+embargo",
    r"no\s+obstante",
    # a conclusion's opener: "In conclusion,", "En conclusión,"
    r"(?:in\s+conclusion|to\s+conclude|in\s+summary|to\s+sum\s+up|to\s+summari[sz]e|all\s+in\s+all|"
    r"overall|in\s+short)(?=\s*[,:])",
    r"(?:en\s+conclusión|para\s+concluir|en\s+síntesis|en\s+suma|en\s+general)(?=\s*[,:])",
    # where the answer comes from: "Based on the provided data", "Según los datos proporcionados"
    r"(?:based\s+on|from|using|per|according\s+to|going\s+by)\s+(?:the\s+)?(?:provided|given|supplied|"
    r"available|returned)\s+(?:data|information|tool\s+(?:results|outputs|data)|results|figures|numbers)",
    r"(?:the\s+)?(?:data|information|tool\s+results|results|figures)\s+(?:provided|given|supplied)"
    r"(?:\s+(?:here|above|to\s+me))?",
    r"(?:según|con|a\s+partir\s+de|de\s+acuerdo\s+con|basad[oa]\s+en|basándo(?:me|nos)\s+en|"
    r"con\s+base\s+en|en\s+base\s+a)\s+(?:los\s+|las\s+|la\s+)?(?:datos|resultados|"
    r"información|cifras)\s+(?:proporcionad[oa]s?|facilitad[oa]s?|disponibles?|suministrad[oa]s?|"
    r"devuelt[oa]s?|obtenid[oa]s?)(?:\s+por\s+(?:la|las)\s+herramientas?)?",
    # the order of the steps: "First, I called get_daily_move", "Luego, consulté"
    r"(?:first|then|next|finally|lastly|after\s+that|primero|luego|después|finalmente|"
    r"por\s+último)(?=\s*,)",
    # walking through it: "Let's break this down step by step", "Vamos paso a paso"
    r"let(?:'s|’s|\s+us|\s+me)\s+(?:break\s+(?:it|this|that)\s+down|walk\s+(?:you\s+)?through\s+"
    r"(?:it|this)|go\s+through\s+(?:it|this))(?:\s+step\s+by\s+step)?",
    r"step\s+by\s+step",
    r"(?:vamos|veamos|vayamos)\s+(?:paso\s+a\s+paso|por\s+partes)",
    r"paso\s+a\s+paso",
    # where the writer looks: "Looking at the numbers for PKW", "Mirando los números de PKW"
    r"(?:looking|taking\s+a\s+(?:quick\s+)?look)\s+at\s+(?:the\s+)?(?:numbers|data|figures)"
    r"(?:\s+(?:for|on|of))?",
    r"(?:mirando|viendo|revisando|repasando)\s+(?:los|las)\s+(?:números|datos|cifras)(?:\s+(?:de|del))?",
    r"here(?:'s|’s|\s+is)\s+the\s+(?:picture|breakdown|story|rundown)(?:\s+(?:for|on))?",
    r"a\s+(?:bit|little)\s+of\s+context(?:\s+from\s+the\s+(?:[\w-]+\s+)?data)?",
    r"in\s+other\s+words",
    r"in\s+(?:dollar|plain|simple|percentage|percent|p&l|pnl|price|return|contribution)\s+(?:terms|words)",
    r"dicho\s+de\s+otro\s+modo",
    r"for\s+comparison",
    r"(?:okay|ok|alright|all\s+right),?\s+let\s+me\s+break\s+(?:this|it)\s+down",
    r"conclusi(?:ó|o)n(?=\s*[*_]*\s*:)",
    r"en\s+otras\s+palabras",
    r"en\s+cuanto\s+a(?:l|\s+(?:las|los|la))?",
    r"as\s+for",
    # context: "For context,", "En perspectiva,"
    r"for\s+(?:context|reference|the\s+record|what\s+it(?:'s|’s|\s+is)\s+worth)",
    r"(?:as|some)\s+(?:context|background)",
    r"(?:en|para|como|a\s+modo\s+de|poniendo\s+en)\s+(?:perspectiva|contexto)",
    r"(?:in|into)\s+(?:perspective|context)",
    r"worth\s+(?:noting|mentioning|flagging|knowing)(?:\s+that)?",
    r"(?:vale|merece)\s+la\s+pena\s+(?:señalar|destacar|mencionar|recordar)(?:\s+que)?",
    r"(?:(?:es|resulta)\s+(?:importante|relevante|útil)|conviene)\s+(?:notar|señalar|destacar|"
    r"mencionar|recordar|aclarar|tener\s+en\s+cuenta)(?:\s+que)?",
    r"it(?:'s|’s|\s+is)\s+(?:important|useful|helpful)\s+to\s+(?:note|remember|stress|keep\s+in\s+"
    r"mind)(?:\s+that)?",
    r"(?:headline|item|date|event|story|titular|noticia|fecha|evento)s?\s+(?:to|a|por)\s+"
    r"(?:watch|vigilar|seguir)",
    r"(?:titular|noticia|dato|cifra)(?:es|s)?\s+(?:destacad[oa]s?|clave)",
    r"key\s+(?:headline|item|figure|takeaway)s?",
    # a chat's closers: "Cualquier cosa me escribes!", "Let me know if you need anything else"
    r"cualquier\s+(?:cosa|duda|consulta|pregunta),?\s+(?:me\s+(?:escribes|dices|avisas|"
    r"comentas|preguntas)|escríbeme|avísame|dime|pregúntame|quedo\s+atent[oa])",
    r"(?:si\s+necesitas|si\s+necesita)\s+(?:algo\s+más|más\s+detalle|más\s+información),?\s+"
    r"(?:me\s+(?:escribes|dices|avisas)|escríbeme|avísame|dime)",
    r"espero\s+que\s+(?:te|le|os|les)\s+(?:sirva|ayude)",
    r"(?:just\s+let|let)\s+me\s+know\s+if\s+you\s+(?:need|want|have)\s+(?:anything|more|any\s+"
    r"(?:questions|details)|further\s+details)(?:\s+else)?",
    r"feel\s+free\s+to\s+(?:reach\s+out|ask|get\s+in\s+touch)",
    r"happy\s+to\s+help",
    r"(?:i\s+hope|hope)\s+(?:this|that)\s+(?:helps|answers\s+your\s+question)",
    r"have\s+a\s+(?:great|good|nice|lovely)\s+(?:day|evening|weekend|night|one)",
    r"(?:que\s+tengas|que\s+tenga|que\s+tengáis|tengas|tenga|tengáis)\s+(?:un\s+)?(?:buen|feliz)\s+(?:día|fin\s+de\s+semana|tarde)",
    r"happy\s+to\s+(?:dig\s+deeper|go\s+deeper|look\s+further|help\s+further)"
    r"(?:\s+if\s+(?:useful|needed|helpful|you\s+like))?",
    r"any\s+questions,?\s+(?:just\s+)?(?:let\s+me\s+know|ask|give\s+me\s+a\s+shout)",
    r"(?:please\s+)?(?:do\s+)?let\s+(?:us|me)\s+know\s+if\s+you\s+(?:have\s+any\s+(?:other\s+|further\s+|more\s+)?"
    r"(?:questions|queries|concerns)|(?:would|'d|’d)\s+like\s+(?:more|further|any\s+more)\s+(?:detail|details|information))",
    r"thanks?(?:\s+you)?\s+for\s+(?:your|the)\s+(?:question|note|message|request|email|query)"
    r"(?:\s+(?:about|on|regarding))?",
    r"gracias\s+por\s+(?:tu|su|la)\s+(?:pregunta|consulta|mensaje|nota)(?:\s+sobre)?",
)
"""Phrases that hand a message over, set its context or close a chat, free as a whole wherever
they stand: none states a figure, a time, a direction or a cause."""
