import type { StreetStyle } from './countries.js';

/** Street names by local convention; `address.ts` puts the house number where each convention puts it. */
export const STREET_NAMES: Readonly<Record<StreetStyle, readonly string[]>> = {
  en: (
    'Main,Market,Oak,Maple,Park,Washington,Lake,Hill,Church,King,Queen,High,Mill,River,Cedar,Elm,Pine,Franklin,' +
    'Jefferson,Madison,Spring,Victoria,Station,Bridge,Harbour,Sunset,Howard,Mission,Congress,Commerce,Fifth,Second,' +
    'Third,University,Innovation,Technology'
  ).split(','),
  de: (
    'Haupt,Bahnhof,Schiller,Goethe,Friedrich,Berliner,Linden,Garten,Kirch,Markt,Park,Wald,Mozart,Kant,Hafen,Königs,' +
    'Rosen,Schloss,Industrie,Leipziger'
  ).split(','),
  fr: (
    'de la République,Victor Hugo,du Faubourg Saint-Honoré,de Rivoli,Jean Jaurès,Pasteur,de la Gare,Gambetta,du ' +
    "Général de Gaulle,Lafayette,de la Paix,Voltaire,Saint-Lazare,de Vaugirard,d'Alésia,Émile Zola"
  ).split(','),
  es: (
    'Mayor,de Alcalá,Gran Vía,de Serrano,del Prado,de la Paz,de San Juan,Real,de Colón,de Cervantes,de la ' +
    'Constitución,de Velázquez,de Goya,del Mar'
  ).split(','),
  pt: (
    'Augusta,Paulista,das Flores,da Consolação,Sete de Setembro,XV de Novembro,Brasil,Atlântica,da Liberdade,Santos ' +
    'Dumont,Faria Lima,Rio Branco,da Boavista'
  ).split(','),
  nl: 'Kerk,Dorp,Stations,Molen,Heren,Keizers,Prinsen,Nieuwe,Markt,Haven,Zuid,Beurs,Oranje,Wilhelmina'.split(','),
  it: (
    'Roma,Garibaldi,Dante,Mazzini,Verdi,Cavour,Torino,Milano,Manzoni,Montenapoleone,Vittorio Emanuele II,XX ' +
    'Settembre,della Repubblica'
  ).split(','),
  nordic:
    'Storgatan,Kungsgatan,Drottninggatan,Sveavägen,Vesterbrogade,Nørrebrogade,Karl Johans gate,Mannerheimintie,Aleksanterinkatu,Bygdøy allé,Östermalmsgatan,Hamngatan,Bredgade'.split(
      ',',
    ),
};

export const EN_STREET_TYPES: readonly string[] = [
  'Street',
  'St',
  'Avenue',
  'Ave',
  'Road',
  'Rd',
  'Boulevard',
  'Blvd',
  'Drive',
  'Lane',
  'Way',
  'Place',
  'Court',
  'Parkway',
];
export const DE_STREET_TYPES: readonly string[] = ['straße', 'str.', 'weg', 'platz', 'allee', 'ring'];
export const NL_STREET_TYPES: readonly string[] = ['straat', 'gracht', 'plein', 'weg', 'laan', 'kade'];
export const FR_STREET_TYPES: readonly string[] = ['rue', 'avenue', 'boulevard', 'place', 'quai'];
export const ES_STREET_TYPES: readonly string[] = ['Calle', 'Avenida', 'Paseo', 'Plaza'];
export const PT_STREET_TYPES: readonly string[] = ['Rua', 'Avenida', 'Praça', 'Alameda'];
export const IT_STREET_TYPES: readonly string[] = ['Via', 'Corso', 'Piazza', 'Viale'];
