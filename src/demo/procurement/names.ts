/**
 * Words the demo builds Portuguese names from: surnames and given names, coined trade names, place names,
 * parishes and streets. All invented combinations; no real company is meant.
 */
import type { Rng } from '../random.js';

export const SURNAMES = [
  'Silva',
  'Santos',
  'Ferreira',
  'Pereira',
  'Oliveira',
  'Costa',
  'Rodrigues',
  'Martins',
  'Jesus',
  'Sousa',
  'Fernandes',
  'Gonçalves',
  'Gomes',
  'Lopes',
  'Marques',
  'Alves',
  'Almeida',
  'Ribeiro',
  'Pinto',
  'Carvalho',
  'Teixeira',
  'Moreira',
  'Correia',
  'Mendes',
  'Nunes',
  'Soares',
  'Vieira',
  'Monteiro',
  'Cardoso',
  'Rocha',
  'Neves',
  'Coelho',
  'Cruz',
  'Cunha',
  'Pires',
  'Ramos',
  'Reis',
  'Simões',
  'Antunes',
  'Matos',
  'Fonseca',
  'Machado',
  'Araújo',
  'Barbosa',
  'Tavares',
  'Lourenço',
  'Castro',
  'Figueiredo',
  'Azevedo',
  'Freitas',
  'Magalhães',
  'Henriques',
  'Lima',
  'Guerreiro',
  'Batista',
  'Pinheiro',
  'Faria',
  'Miranda',
  'Barros',
  'Morais',
  'Nogueira',
  'Esteves',
  'Campos',
  'Vaz',
  'Andrade',
  'Brito',
  'Leite',
  'Valente',
  'Amaral',
  'Dias',
  'Duarte',
  'Loureiro',
  'Macedo',
  'Medeiros',
  'Mota',
  'Paiva',
  'Salgado',
  'Serrano',
  'Sequeira',
  'Torres',
  'Vasconcelos',
  'Quintela',
  'Brandão',
  'Fidalgo',
  'Calado',
  'Peixoto',
  'Barreto',
  'Rebelo',
  'Sampaio',
  'Bastos',
];

export const GIVEN_NAMES = [
  'Ana',
  'Maria',
  'João',
  'José',
  'Pedro',
  'Rui',
  'Carla',
  'Sofia',
  'Miguel',
  'Tiago',
  'Inês',
  'Catarina',
  'Filipe',
  'Nuno',
  'Paulo',
  'Ricardo',
  'Rita',
  'Susana',
  'Luís',
  'Helena',
  'Marta',
  'Bruno',
  'Joana',
  'André',
  'Teresa',
  'Hugo',
  'Cláudia',
  'Vasco',
  'Beatriz',
  'Diogo',
];

/** Invented trade-name stems. */
export const COINED = [
  'Lusoverde',
  'Tecnovia',
  'Ibercivil',
  'Atlantis',
  'Nortenha',
  'Sulpavi',
  'Interpav',
  'Ecoterra',
  'Vianor',
  'Transmonte',
  'Beiralux',
  'Alentec',
  'Algarvia',
  'Minhobra',
  'Douroplan',
  'Tejoclima',
  'Riaconsult',
  'Serrana',
  'Planalto',
  'Horizonte',
  'Vértice',
  'Quadrante',
  'Meridiano',
  'Aurora',
  'Estrela',
  'Farol',
  'Castelar',
  'Granitus',
  'Cimentec',
  'Hidrolis',
  'Aquapura',
  'Electrolis',
  'Lumitec',
  'Infosoft',
  'Datalis',
  'Sistemix',
  'Netrix',
  'Gestiplan',
  'Consultar',
  'Prospetiva',
  'Ambiverde',
  'Limpagest',
  'Higiclean',
  'Segurvia',
  'Vigilarte',
  'Autolis',
  'Motorsul',
  'Pneurota',
  'Combustil',
  'Energis',
  'Gasnorte',
  'Sabores',
  'Frutibeira',
  'Panitec',
  'Carnesul',
  'Rodonorte',
  'Viajarte',
  'Mesaboa',
  'Cozinarte',
  'Sonoluz',
  'Palcus',
  'Festarte',
  'Papelis',
  'Graficor',
  'Tipolis',
  'Mobilis',
  'Equipalis',
  'Ludicus',
  'Desportus',
  'Medilis',
  'Fardalis',
  'Formarte',
  'Segurolis',
  'Telecomis',
  'Britasul',
  'Inertix',
  'Betumix',
  'Agrovale',
  'Floresta',
  'Viveirus',
  'Quimilis',
];

/** Place-like words used in trade names and in object texts. */
export const PLACE_WORDS = [
  'Vale',
  'Alto',
  'Ribeira',
  'Serra',
  'Monte',
  'Outeiro',
  'Carvalhal',
  'Souto',
  'Fontainhas',
  'Lameiras',
  'Pinhal',
  'Azenha',
  'Cerrado',
  'Portela',
  'Barreiro',
  'Azinhaga',
  'Quintã',
  'Corgo',
  'Chão',
  'Ameal',
  'Bouça',
  'Tapada',
  'Lagoa',
  'Pombal',
  'Rossio',
  'Giesteira',
  'Cabeço',
  'Boavista',
  'Lomba',
  'Seixal',
];

const SAINTS = [
  'São Pedro',
  'Santa Maria',
  'São João Baptista',
  'Santiago',
  'São Martinho',
  'Santo António',
  'São Miguel',
  'Nossa Senhora da Conceição',
  'São Salvador',
  'Santa Marinha',
  'São Tiago',
  'São Vicente',
  'Santa Eulália',
  'São Sebastião',
  'Santa Cruz',
  'São Bartolomeu',
  'São Mamede',
  'São Paio',
  'Santo Estêvão',
  'São Cristóvão',
];

const LOCALITIES = [
  'Vila Nova',
  'Aldeia Nova',
  'Vilar',
  'Fonte Boa',
  'Moreira',
  'Castelo',
  'Ribeira',
  'Outeiro',
  'Carvalhal',
  'Souto',
  'Barrosa',
  'Figueira',
  'Arcos',
  'Ponte',
  'Lamas',
  'Paço',
  'Cortegaça',
  'Sobreira',
  'Valverde',
  'Mouriscas',
  'Alvarenga',
  'Pedreira',
  'Casal',
  'Freixo',
  'Azinheira',
  'Murtal',
  'Póvoa',
  'Cabanas',
  'Sobral',
  'Granja',
  'Covas',
  'Gândara',
  'Tojal',
  'Mosteiro',
  'Olival',
  'Amoreira',
  'Aveleda',
  'Loureiro',
];

/** A parish (freguesia) name; `seat` is the municipality's own name, used for its first parish. */
export function parishName(rng: Rng, seat: string | null): string {
  const one = () => (rng.next() < 0.45 ? rng.pick(SAINTS) : rng.pick(LOCALITIES));
  const first = seat ?? one();
  if (rng.next() < 0.28) {
    let second = one();
    if (second === first) second = rng.pick(LOCALITIES);
    return `União das Freguesias de ${first} e ${second}`;
  }
  return `Freguesia de ${first}`;
}

/** The place a parish name designates (for object texts): `Freguesia de X` → X, `União … de X e Y` → X. */
export function parishPlace(name: string): string {
  const m = /^(?:União das Freguesias|Freguesia) de (.+?)(?: e .+)?$/.exec(name);
  return m ? m[1] : name;
}

const STREET_PATRONS = [
  'Rua da Escola',
  'Rua da Igreja',
  'Rua do Comércio',
  'Rua 25 de Abril',
  'Rua 1.º de Maio',
  'Rua Direita',
  'Avenida da Liberdade',
  'Avenida da República',
  'Rua de Santo António',
  'Rua Nova',
  'Rua do Cemitério',
  'Travessa do Outeiro',
  'Largo da Feira',
  'Rua da Fonte',
  'Rua do Castelo',
  'Avenida dos Bombeiros Voluntários',
  'Rua da Estação',
  'Rua do Mercado',
  'Rua das Flores',
  'Rua de São João',
];

export function streetName(rng: Rng): string {
  const u = rng.next();
  if (u < 0.15) return `Estrada Municipal ${rng.int(500, 1399)}`;
  if (u < 0.25) return `Caminho Municipal ${rng.int(1000, 1999)}`;
  if (u < 0.45) return `Rua ${rng.next() < 0.5 ? 'Dr.' : 'Professor'} ${rng.pick(GIVEN_NAMES)} ${rng.pick(SURNAMES)}`;
  return rng.pick(STREET_PATRONS);
}

export function personName(rng: Rng): string {
  const given = rng.pick(GIVEN_NAMES);
  const middle = rng.next() < 0.5 ? ` ${rng.pick(GIVEN_NAMES)}` : '';
  let a = rng.pick(SURNAMES);
  let b = rng.pick(SURNAMES);
  if (a === b) b = 'Sequeira';
  if (given === a) a = 'Lopes';
  return `${given}${middle} ${a} ${b}`;
}

/** Capital letters of a name's significant words (`Vila Nova de Gaia` → `VNG`). */
export function acronym(name: string): string {
  return name
    .split(/[\s-]+/)
    .filter((w) => w.length > 2 && !/^(das?|dos?|de|e)$/i.test(w))
    .map((w) => w[0].toUpperCase())
    .join('')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}

export function randomAcronym(rng: Rng, length = rng.int(2, 4)): string {
  const letters = 'ABCDEFGHIJLMNOPRSTV';
  let out = '';
  for (let i = 0; i < length; i++) out += letters[rng.int(0, letters.length - 1)];
  return out;
}
