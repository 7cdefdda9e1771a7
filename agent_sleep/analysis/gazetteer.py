"""What kind of name a value is, for the names whose kind is common knowledge: a place (a
country, a US state, a large or well-known city: some 650 cities of every continent)
or a language (which is also a nationality's adjective).

Currency needs it where a change says nothing of what changed: "Bob moved to Berlin" changes
where Bob lives, not "Bob works at Google"; "Alice now speaks German" says nothing of "Alice is
from Canada". A name not listed here has no known kind (most company, product and person names),
and the rules then read the pair as before. Lower-case keys; multi-word names joined by spaces.
Names that are also common first names (Austin, Charlotte, Sydney, Jordan, Chad)
or words ("nice", "cork") are left out: a person is no place.
"""

from __future__ import annotations

PLACE = "place"
LANGUAGE = "language"

_COUNTRIES = """
afghanistan albania algeria andorra angola argentina armenia australia austria azerbaijan
bahamas bahrain bangladesh barbados belarus belgium belize benin bhutan bolivia bosnia
botswana brazil brunei bulgaria burundi cambodia cameroon canada chile china colombia
comoros congo croatia cuba cyprus czechia denmark djibouti dominica ecuador egypt eritrea
estonia eswatini ethiopia fiji finland france gabon gambia georgia germany ghana greece
grenada guatemala guinea guyana haiti honduras hungary iceland india indonesia iran iraq
ireland italy jamaica japan kazakhstan kenya kiribati kosovo kuwait kyrgyzstan
laos latvia lebanon lesotho liberia libya liechtenstein lithuania luxembourg madagascar malawi
malaysia maldives mali malta mauritania mauritius mexico micronesia moldova monaco mongolia
montenegro morocco mozambique myanmar namibia nauru nepal netherlands holland nicaragua niger
nigeria norway oman pakistan palau palestine panama paraguay peru philippines poland portugal
qatar romania russia rwanda samoa senegal serbia seychelles singapore slovakia slovenia
somalia spain sudan suriname sweden switzerland syria taiwan tajikistan tanzania thailand
togo tonga tunisia turkey türkiye turkmenistan tuvalu uganda ukraine uruguay uzbekistan
vanuatu vatican venezuela vietnam yemen zambia zimbabwe england scotland wales britain uk usa
america uae
""".split()  # noqa: SIM905
_MULTI = [
    "united states", "united kingdom", "great britain", "new zealand", "south africa",
    "south korea", "north korea", "saudi arabia", "sri lanka", "costa rica", "el salvador",
    "dominican republic", "puerto rico", "hong kong", "czech republic", "ivory coast",
    "new york", "new york city", "los angeles", "san francisco", "san diego", "san jose",
    "las vegas", "new orleans", "salt lake city", "kansas city", "st louis", "mexico city",
    "rio de janeiro", "sao paulo", "são paulo", "buenos aires", "cape town", "tel aviv",
    "abu dhabi", "kuala lumpur", "ho chi minh city", "new delhi", "north carolina",
    "south carolina", "north dakota", "south dakota", "new jersey", "new mexico",
    "new hampshire", "rhode island", "west virginia", "the bay area", "bay area",
    "the hague", "san sebastian", "novi sad", "cluj-napoca", "st petersburg", "saint petersburg",
    "chiang mai", "da nang", "phnom penh", "dar es salaam", "port elizabeth", "gold coast",
    "san antonio", "fort worth", "el paso", "new haven", "fort lauderdale", "baton rouge",
    "little rock", "des moines", "green bay", "ann arbor", "grand rapids", "st paul",
    "santa fe", "santa barbara", "long beach", "santa monica", "santa cruz", "quebec city",
    "la paz", "panama city", "san juan", "santo domingo", "playa del carmen", "porto alegre",
    "belo horizonte", "milton keynes", "aix-en-provence",
]  # fmt: skip
_STATES = """
alabama alaska arizona arkansas california colorado connecticut delaware florida hawaii idaho
illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan
minnesota mississippi missouri montana nebraska nevada ohio oklahoma oregon pennsylvania
tennessee texas utah vermont virginia washington wisconsin wyoming ontario quebec bavaria
catalonia andalusia tuscany provence brittany
""".split()  # noqa: SIM905
_CITIES = """
london paris berlin madrid rome lisbon porto barcelona valencia seville milan turin naples
 venice munich hamburg frankfurt cologne stuttgart düsseldorf dusseldorf leipzig
dresden vienna zurich zürich geneva basel bern amsterdam rotterdam utrecht brussels antwerp
ghent copenhagen stockholm gothenburg oslo bergen helsinki reykjavik dublin edinburgh
glasgow manchester liverpool birmingham leeds bristol oxford cambridge brighton belfast
cardiff warsaw krakow kraków wroclaw gdansk prague brno budapest bucharest sofia belgrade
zagreb ljubljana athens thessaloniki istanbul ankara izmir kyiv kiev lviv odesa odessa minsk
vilnius riga tallinn moscow tbilisi yerevan baku marseille lyon toulouse nantes
bordeaux lille strasbourg montpellier luxembourg monaco malaga bilbao granada palma
tokyo osaka kyoto yokohama nagoya sapporo fukuoka seoul busan beijing shanghai shenzhen
guangzhou chengdu hangzhou wuhan taipei bangkok hanoi saigon manila jakarta bali singapore
mumbai bombay delhi bangalore bengaluru chennai hyderabad pune kolkata karachi lahore dhaka
kathmandu colombo dubai doha riyadh jeddah tehran baghdad beirut amman jerusalem cairo
alexandria casablanca marrakech tunis algiers lagos abuja accra nairobi kampala kigali
addis johannesburg durban harare lusaka dakar melbourne brisbane perth
canberra auckland wellington christchurch toronto montreal vancouver calgary ottawa edmonton
winnipeg halifax boston chicago seattle portland denver houston atlanta miami
orlando tampa tucson philadelphia pittsburgh baltimore detroit cleveland
cincinnati indianapolis milwaukee minneapolis nashville memphis raleigh richmond
brooklyn manhattan queens oakland sacramento honolulu anchorage albuquerque boise omaha
chattanooga charleston boulder berkeley palo alto seattle tacoma spokane lima bogota
bogotá medellin medellín quito caracas montevideo asuncion havana guadalajara
monterrey cancun tijuana
""".split()  # noqa: SIM905
_MORE_CITIES = """
sheffield nottingham leicester coventry newcastle sunderland southampton portsmouth plymouth
norwich york exeter canterbury aberdeen dundee inverness swansea waterford kilkenny bournemouth
galway rennes reims dijon grenoble avignon rouen toulon brest perpignan besancon besançon
limoges annecy biarritz calais clermont-ferrand bologna genoa palermo catania bari verona
trieste padua padova pisa siena parma modena perugia cagliari brescia bergamo lecce zaragoza
murcia alicante cordoba córdoba valladolid vigo gijon gijón salamanca pamplona cadiz cádiz
tarragona girona ibiza braga coimbra faro funchal aveiro bonn bremen hanover hannover nuremberg
nürnberg dortmund essen duisburg bochum münster mannheim karlsruhe freiburg heidelberg augsburg
kiel lübeck lubeck rostock potsdam mainz wiesbaden aachen regensburg würzburg wurzburg graz
salzburg innsbruck linz klagenfurt lausanne lucerne luzern lugano eindhoven groningen
maastricht leiden delft haarlem nijmegen tilburg arnhem bruges brugge leuven liege liège namur
charleroi aarhus odense aalborg malmo malmö uppsala linköping linkoping örebro orebro tampere
turku oulu espoo trondheim stavanger tromso tromsø lodz łódź poznan poznań szczecin lublin
katowice bydgoszcz ostrava plzen pilsen olomouc bratislava kosice košice debrecen szeged tartu
kaunas klaipeda dubrovnik zadar rijeka sarajevo mostar skopje podgorica tirana pristina
timisoara iasi constanta brasov varna plovdiv heraklion patras nicosia limassol valletta
antalya adana kharkiv dnipro novosibirsk yekaterinburg kazan hiroshima sendai okinawa incheon
daegu gwangju tianjin nanjing xian xi'an chongqing suzhou xiamen qingdao dalian kunming harbin
macau macao kaohsiung taichung phuket pattaya vientiane yangon mandalay cebu davao surabaya
bandung yogyakarta penang ahmedabad jaipur lucknow kochi cochin chandigarh islamabad peshawar
chittagong kabul tashkent almaty astana bishkek ulaanbaatar manama sharjah haifa damascus
aleppo luxor giza rabat fes tangier agadir oran tripoli benghazi khartoum mombasa arusha
zanzibar kinshasa luanda maputo windhoek gaborone pretoria bloemfontein abidjan kumasi freetown
monrovia bamako ouagadougou niamey conakry douala yaounde yaoundé wollongong geelong dunedin
queenstown rotorua suva louisville lexington jacksonville knoxville rochester syracuse albany
scranton harrisburg allentown newark trenton wilmington norfolk durham greensboro asheville
greenville tallahassee gainesville sarasota tulsa wichita topeka akron dayton fargo missoula
bozeman reno fresno bakersfield pasadena juneau fairbanks saskatoon kelowna mississauga
valparaiso valparaíso cusco cuzco arequipa guayaquil cuenca barranquilla cartagena puebla
oaxaca merida mérida tulum brasilia brasília recife fortaleza curitiba manaus florianopolis
florianópolis
""".split()  # noqa: SIM905
_LANGUAGES = """
english french german spanish italian portuguese dutch flemish danish swedish norwegian
finnish icelandic polish czech slovak hungarian romanian bulgarian serbian croatian
slovenian greek turkish russian ukrainian belarusian lithuanian latvian estonian georgian
armenian arabic hebrew persian farsi urdu hindi bengali punjabi tamil telugu marathi
gujarati nepali sinhala thai vietnamese indonesian malay tagalog filipino chinese mandarin
cantonese japanese korean swahili amharic yoruba igbo hausa zulu xhosa afrikaans catalan
basque galician welsh irish gaelic latin esperanto canadian american british australian
mexican brazilian argentinian argentine colombian chilean peruvian cuban venezuelan
nigerian kenyan ghanaian ethiopian egyptian moroccan algerian tunisian israeli iranian
iraqi syrian lebanese saudi emirati pakistani indian bangladeshi chinese taiwanese
singaporean malaysian thai vietnamese filipino korean japanese swiss austrian belgian
scottish swiss norwegian swede swedish dane finn pole polish portuguese spaniard french
italian greek turkish
""".split()  # noqa: SIM905

KINDS: dict[str, str] = {
    **{w: PLACE for w in [*_COUNTRIES, *_MULTI, *_STATES, *_CITIES, *_MORE_CITIES]},
    **{w: LANGUAGE for w in _LANGUAGES},
}


def kind(value: str) -> str | None:
    """``place``, ``language`` or None for a value (any case; a leading "the" aside)."""
    v = " ".join(value.lower().replace("_", " ").split())
    if v.startswith("the ") and v not in KINDS:
        v = v[4:]
    return KINDS.get(v)
