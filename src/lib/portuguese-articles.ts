/**
 * A public body's name after a Portuguese preposition, with the article its first word takes: "do Município de
 * Lisboa", "da Câmara Municipal do Porto", "aos Serviços Municipalizados de Loures" — where "de Município de Lisboa"
 * reads as a foreigner's Portuguese. A name whose first word is not a known common noun (a company, "Construções
 * Silva, Lda.") keeps the bare preposition, as the press writes it without knowing the firm's gender.
 */

type Article = 'o' | 'a' | 'os' | 'as';

/** The first words of public bodies' names in the portal, by the article they take. */
const ARTICLES: ReadonlyMap<string, Article> = new Map([
  ...words('o', [
    'adjudicatário',
    'município',
    'instituto',
    'hospital',
    'centro',
    'agrupamento',
    'ministério',
    'estado',
    'governo',
    'conselho',
    'tribunal',
    'laboratório',
    'metropolitano',
    'parque',
    'serviço',
    'gabinete',
    'departamento',
    'fundo',
    'museu',
    'teatro',
    'arquivo',
    'comando',
    'exército',
    'banco',
    'consórcio',
    'observatório',
    'colégio',
    'conservatório',
    'secretariado',
  ]),
  ...words('a', [
    'câmara',
    'junta',
    'freguesia',
    'união',
    'universidade',
    'escola',
    'direção',
    'direcção',
    'secretaria',
    'região',
    'comunidade',
    'associação',
    'empresa',
    'fundação',
    'assembleia',
    'administração',
    'autoridade',
    'agência',
    'polícia',
    'guarda',
    'santa',
    'entidade',
    'comissão',
    'inspeção',
    'inspecção',
    'procuradoria',
    'presidência',
    'academia',
    'biblioteca',
    'casa',
    'cooperativa',
    'sociedade',
    'unidade',
    'marinha',
    'força',
    'rede',
    'estrutura',
    'provedoria',
    'ordem',
    'misericórdia',
    'faculdade',
  ]),
  ...words('os', ['serviços', 'transportes', 'estabelecimentos']),
  ...words('as', ['águas', 'infraestruturas', 'forças', 'estradas', 'oficinas']),
]);

function words(article: Article, list: readonly string[]): [string, Article][] {
  return list.map((w) => [w, article]);
}

const OF: Record<Article, string> = { o: 'do', a: 'da', os: 'dos', as: 'das' };
const TO: Record<Article, string> = { o: 'ao', a: 'à', os: 'aos', as: 'às' };

/** `de` and the name: "do Município de Lisboa", "de Construções Silva, Lda.". */
export function ofName(name: string): string {
  const article = articleOf(name);
  return `${article ? OF[article] : 'de'} ${name}`;
}

/** `a` and the name: "ao Município de Lisboa", "à Câmara Municipal do Porto", "a Construções Silva, Lda.". */
export function toName(name: string): string {
  const article = articleOf(name);
  return `${article ? TO[article] : 'a'} ${name}`;
}

/** The name with its article, as a sentence's subject or after `com`: "o Município de Lisboa", "Construções Silva". */
export function withArticle(name: string): string {
  const article = articleOf(name);
  return article ? `${article} ${name}` : name;
}

/**
 * withArticle at the start of a sentence: "O Município de Lisboa publicou…". Only the article is capitalised: a name
 * is quoted as published ("iRN - Instituto dos Registos e Notariado", as the English text says it).
 */
export function subjectName(name: string): string {
  const article = articleOf(name);
  return article ? `${capitalised(article)} ${name}` : name;
}

/** The first letter upper-case: `o` → `O`, `no Porto` → `No Porto`. */
function capitalised(text: string): string {
  return text.charAt(0).toLocaleUpperCase('pt') + text.slice(1);
}

function articleOf(name: string): Article | undefined {
  const first = /^\p{L}+/u.exec(name.trim())?.[0];
  return first === undefined ? undefined : ARTICLES.get(first.toLocaleLowerCase('pt'));
}

/**
 * The municipalities whose names take an article in Portuguese ("no Porto", "na Guarda", "nas Caldas da Rainha"),
 * by the article; every other is said without one ("em Lisboa"). Only those the press writes with the article
 * without exception: where usage is divided (Lagoa, Porto de Mós), the bare `em`.
 */
const PLACE_ARTICLES: ReadonlyMap<string, Article> = new Map([
  ...words('o', [
    'Porto',
    'Barreiro',
    'Cartaxo',
    'Entroncamento',
    'Funchal',
    'Seixal',
    'Montijo',
    'Fundão',
    'Sabugal',
    'Bombarral',
    'Redondo',
    'Gavião',
    'Crato',
    'Cadaval',
    'Sardoal',
    'Corvo',
    'Nordeste',
    'Alandroal',
    'Marco de Canaveses',
    'Porto Moniz',
    'Porto Santo',
    'Peso da Régua',
  ]),
  ...words('a', [
    'Guarda',
    'Amadora',
    'Batalha',
    'Nazaré',
    'Horta',
    'Lourinhã',
    'Covilhã',
    'Maia',
    'Trofa',
    'Moita',
    'Mealhada',
    'Chamusca',
    'Golegã',
    'Lousã',
    'Mêda',
    'Murtosa',
    'Sertã',
    'Calheta',
    'Madalena',
    'Povoação',
    'Azambuja',
    'Vidigueira',
    'Figueira da Foz',
    'Póvoa de Varzim',
    'Póvoa de Lanhoso',
    'Ribeira Grande',
    'Praia da Vitória',
    'Ponta do Sol',
    'Ribeira Brava',
    'Marinha Grande',
    'Pampilhosa da Serra',
  ]),
  ...words('os', ['Arcos de Valdevez']),
  ...words('as', ['Caldas da Rainha', 'Lajes das Flores', 'Lajes do Pico', 'Velas']),
]);

const IN: Record<Article, string> = { o: 'no', a: 'na', os: 'nos', as: 'nas' };

/** `em` and a place: "no Porto", "na Guarda", "em Lisboa"; a text that is no one place ("Porto, Maia") keeps `em`. */
export function inPlace(place: string): string {
  const article = PLACE_ARTICLES.get(place);
  return `${article ? IN[article] : 'em'} ${place}`;
}

/**
 * `em` and each of several places, with its own article: "no Porto, em Matosinhos e na Maia"; beyond `max`, the rest
 * counted: "…e em mais 3 municípios".
 */
export function inPlaces(places: readonly string[], max = 5): string {
  const each = places.slice(0, max).map(inPlace);
  const more = places.length - each.length;
  if (more > 0) each.push(`em mais ${more} ${more === 1 ? 'município' : 'municípios'}`);
  return each.length <= 1 ? (each[0] ?? '') : `${each.slice(0, -1).join(', ')} e ${each[each.length - 1]}`;
}

/** inPlace at the start of a sentence: "No Porto, o indicador…". */
export function inPlaceStart(place: string): string {
  return capitalised(inPlace(place));
}
