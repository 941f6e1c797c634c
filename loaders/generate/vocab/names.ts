/** Given names and family names by culture; `ascii` forms (lowercase, accents folded) feed emails and slugs. */

export interface NamePart {
  name: string;
  ascii: string;
}

export interface Culture {
  first: readonly NamePart[];
  last: readonly NamePart[];
}

/** Lowercase ASCII form of a name: accents folded, letters not covered by NFD (ø, ł, ß) mapped by hand. */
export function asciiName(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ø/g, 'o')
    .replace(/Ø/g, 'O')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

function parts(list: string): NamePart[] {
  return list.split(',').map((n) => ({ name: n.trim(), ascii: asciiName(n.trim()) }));
}

function culture(first: string, last: string): Culture {
  return { first: parts(first), last: parts(last) };
}

export const CULTURES = {
  anglo: culture(
    'James,Mary,John,Patricia,Robert,Jennifer,Michael,Linda,William,Elizabeth,David,Barbara,Richard,Susan,Joseph,' +
      'Jessica,Thomas,Sarah,Christopher,Karen,Daniel,Emily,Matthew,Ashley,Anthony,Megan,Mark,Rachel,Andrew,Laura,' +
      'Joshua,Hannah,Ryan,Olivia,Tyler,Emma,Kevin,Chloe,Brian,Grace,Jason,Zoë,Liam,Amelia,Oliver,Charlotte,Jack,Sophie',
    'Smith,Johnson,Williams,Brown,Jones,Miller,Davis,Wilson,Anderson,Taylor,Thomas,Moore,Jackson,White,Harris,' +
      'Martin,Thompson,Clark,Lewis,Walker,Hall,Allen,Young,King,Wright,Scott,Green,Baker,Adams,Nelson,Hill,Campbell,' +
      "Mitchell,Roberts,Carter,Phillips,Evans,Turner,Parker,Collins,Edwards,Stewart,Morris,Murphy,Cook,Rogers,O'Brien," +
      'McDonald,Hughes,Bennett',
  ),
  hispanic: culture(
    'José,María,Juan,Carmen,Luis,Ana,Carlos,Lucía,Jorge,Sofía,Miguel,Isabel,Alejandro,Valentina,Diego,Camila,Javier,' +
      'Gabriela,Fernando,Daniela,Ricardo,Mariana,Pablo,Elena,Andrés,Paula,Sergio,Laura,Raúl,Natalia,Manuel,Alba,' +
      'Francisco,Marta,Antonio,Inés',
    'García,Rodríguez,Martínez,Hernández,López,González,Pérez,Sánchez,Ramírez,Torres,Flores,Rivera,Gómez,Díaz,Reyes,' +
      'Morales,Jiménez,Ruiz,Álvarez,Romero,Navarro,Castillo,Ortiz,Vargas,Castro,Mendoza,Guerrero,Medina,Herrera,' +
      'Aguilar,Vega,Molina,Delgado,Ortega,Iglesias,Fernández',
  ),
  indian: culture(
    'Aarav,Priya,Rahul,Ananya,Arjun,Sneha,Vikram,Pooja,Rohan,Kavya,Amit,Divya,Sanjay,Neha,Rajesh,Aishwarya,Suresh,' +
      'Meera,Karthik,Lakshmi,Aditya,Shreya,Nikhil,Deepika,Vivek,Anjali,Manish,Swati,Harish,Ritu,Siddharth,Nisha,Varun,' +
      'Isha,Pranav,Tanvi',
    'Sharma,Patel,Singh,Kumar,Gupta,Reddy,Iyer,Nair,Mehta,Joshi,Rao,Shah,Agarwal,Verma,Mishra,Chopra,Malhotra,' +
      'Kapoor,Bhat,Menon,Pillai,Desai,Kulkarni,Banerjee,Chatterjee,Das,Mukherjee,Srinivasan,Krishnan,Naidu,Saxena,' +
      'Bose,Thakur,Pandey',
  ),
  chinese: culture(
    'Wei,Fang,Jing,Lei,Min,Yan,Hui,Jun,Li,Xin,Hao,Ying,Tao,Mei,Bo,Lan,Chen,Qing,Yu,Jie,Feng,Ling,Kai,Na,Ming,' +
      'Xiaoling,Zhiwei,Yifan,Haoran,Ruoxi,Kevin,Grace,Eric,Vivian,Jason,Cindy',
    'Wang,Li,Zhang,Liu,Chen,Yang,Huang,Zhao,Wu,Zhou,Xu,Sun,Ma,Zhu,Hu,Guo,He,Lin,Luo,Gao,Zheng,Liang,Xie,Tang,Han,' +
      'Cao,Deng,Feng,Peng,Zeng,Lu,Ye,Cheng,Wong,Chan,Lee',
  ),
  german: culture(
    'Lukas,Anna,Maximilian,Laura,Felix,Lena,Jonas,Lea,Leon,Hannah,Paul,Julia,Tobias,Sophie,Florian,Katharina,' +
      'Sebastian,Johanna,Stefan,Sabine,Andreas,Claudia,Matthias,Anja,Jürgen,Birgit,Uwe,Petra,Markus,Nina,Niklas,Jana,' +
      'Moritz,Carla,Björn,Mareike',
    'Müller,Schmidt,Schneider,Fischer,Weber,Meyer,Wagner,Becker,Schulz,Hoffmann,Schäfer,Koch,Bauer,Richter,Klein,' +
      'Wolf,Schröder,Neumann,Schwarz,Zimmermann,Braun,Krüger,Hofmann,Hartmann,Lange,Schmitt,Werner,Krause,Meier,' +
      'Lehmann,Huber,Kaiser,Fuchs,Vogel,Keller,Günther',
  ),
  french: culture(
    'Louis,Camille,Hugo,Léa,Lucas,Manon,Jules,Chloé,Antoine,Inès,Thomas,Juliette,Nicolas,Mathilde,Julien,Céline,' +
      'Pierre,Élodie,François,Aurélie,Mathieu,Sandrine,Guillaume,Émilie,Maxime,Claire,Théo,Margaux,Baptiste,Pauline,' +
      'Olivier,Amélie,Benoît,Hélène,Rémi,Anaïs',
    'Martin,Bernard,Dubois,Thomas,Robert,Richard,Petit,Durand,Leroy,Moreau,Simon,Laurent,Lefèvre,Michel,Garcia,' +
      'David,Bertrand,Roux,Vincent,Fournier,Morel,Girard,André,Lefebvre,Mercier,Dupont,Lambert,Bonnet,François,' +
      'Martinez,Legrand,Garnier,Faure,Rousseau,Blanc,Chevalier',
  ),
  dutch: culture(
    'Daan,Emma,Sem,Julia,Lucas,Mila,Levi,Tess,Finn,Sophie,Jesse,Zoë,Thijs,Fleur,Ruben,Lotte,Bram,Anouk,Stijn,Sanne,' +
      'Joost,Femke,Pieter,Eva,Maarten,Noor,Wouter,Iris,Koen,Lieke',
    'de Jong,Jansen,de Vries,van den Berg,van Dijk,Bakker,Janssen,Visser,Smit,Meijer,de Boer,Mulder,de Groot,Bos,' +
      'Vos,Peters,Hendriks,van Leeuwen,Dekker,Brouwer,de Wit,Dijkstra,Smits,de Graaf,van der Meer,Kok,Jacobs,van Wijk,' +
      'Vermeulen,Willems',
  ),
  nordic: culture(
    'Erik,Anna,Lars,Ingrid,Johan,Sofia,Anders,Maja,Nils,Elin,Magnus,Astrid,Henrik,Freja,Mikael,Sigrid,Oskar,Linnea,' +
      'Mats,Karin,Søren,Ida,Jens,Mette,Mikko,Aino,Jukka,Sanna,Björn,Helga',
    'Andersson,Johansson,Karlsson,Nilsson,Eriksson,Larsson,Olsson,Persson,Svensson,Gustafsson,Hansen,Johansen,Olsen,' +
      'Larsen,Nielsen,Jensen,Pedersen,Kristensen,Virtanen,Korhonen,Mäkinen,Nieminen,Lindqvist,Berg,Lund,Holm,Dahl,' +
      'Haugen,Bakke,Strand',
  ),
  italian: culture(
    'Marco,Giulia,Alessandro,Francesca,Luca,Chiara,Andrea,Sara,Matteo,Valentina,Lorenzo,Martina,Giuseppe,Elena,' +
      'Francesco,Alessia,Davide,Federica,Stefano,Silvia,Simone,Paola,Giovanni,Roberta,Riccardo,Ilaria,Nicolò,Beatrice,' +
      'Emanuele,Serena',
    'Rossi,Russo,Ferrari,Esposito,Bianchi,Romano,Colombo,Ricci,Marino,Greco,Bruno,Gallo,Conti,De Luca,Mancini,Costa,' +
      'Giordano,Rizzo,Lombardi,Moretti,Barbieri,Fontana,Santoro,Mariani,Rinaldi,Caruso,Ferrara,Galli,Martini,Leone',
  ),
  slavic: culture(
    'Piotr,Anna,Krzysztof,Katarzyna,Tomasz,Magdalena,Łukasz,Agnieszka,Paweł,Joanna,Michał,Ewa,Jakub,Monika,Marek,' +
      'Natalia,Dmitri,Olga,Sergei,Irina,Alexei,Tatiana,Ivan,Elena,Andrei,Svetlana,Nikola,Jelena,Marko,Ivana',
    'Nowak,Kowalski,Wiśniewski,Wójcik,Kowalczyk,Kamiński,Lewandowski,Zieliński,Szymański,Woźniak,Dąbrowski,' +
      'Kozłowski,Jankowski,Mazur,Krawczyk,Ivanov,Petrov,Smirnov,Popov,Volkov,Novak,Horvat,Kovačević,Jovanović,' +
      'Petrović,Novotný,Dvořák,Černý,Kuznetsov,Sokolov',
  ),
  arabic: culture(
    'Mohammed,Fatima,Ahmed,Aisha,Omar,Mariam,Ali,Layla,Hassan,Noor,Youssef,Sara,Khalid,Huda,Ibrahim,Rania,Tariq,' +
      'Amira,Karim,Salma,Mustafa,Yasmin,Hamza,Dina,Faisal,Lina,Rami,Reem,Samir,Nadia',
    'Al-Sayed,Haddad,Khalil,Hassan,Ibrahim,Mansour,Nasser,Saleh,Aziz,Rahman,Farouk,Hamdan,Al-Farsi,Qureshi,Sharif,' +
      'Karam,Abboud,Mahmoud,Yousef,Darwish,Othman,Salem,Khoury,Najjar,Bakr,Zaki,Hussein,Said,Amin,Malik',
  ),
  japanese: culture(
    'Haruto,Yui,Sota,Aoi,Yuto,Hina,Ren,Sakura,Takumi,Mio,Kenji,Yuki,Hiroshi,Akiko,Takashi,Naoko,Daisuke,Emi,Kazuki,' +
      'Ayaka,Shota,Misaki,Ryo,Nanami,Satoshi,Keiko,Yusuke,Mai,Kenta,Rina',
    'Sato,Suzuki,Takahashi,Tanaka,Watanabe,Ito,Yamamoto,Nakamura,Kobayashi,Kato,Yoshida,Yamada,Sasaki,Yamaguchi,' +
      'Matsumoto,Inoue,Kimura,Hayashi,Shimizu,Yamazaki,Mori,Abe,Ikeda,Hashimoto,Ishikawa,Ogawa,Fujita,Okada,Goto,' +
      'Hasegawa',
  ),
  korean: culture(
    'Min-jun,Seo-yeon,Ji-ho,Ha-eun,Do-yun,Ji-woo,Seung-hyun,Soo-jin,Jae-won,Eun-ji,Hyun-woo,Yu-na,Sung-min,Da-eun,' +
      'Joon-ho,Hye-jin,Tae-yang,Mi-rae,Dong-hyun,Ye-jin',
    'Kim,Lee,Park,Choi,Jung,Kang,Cho,Yoon,Jang,Lim,Han,Oh,Seo,Shin,Kwon,Hwang,Ahn,Song,Yoo,Hong',
  ),
  lusophone: culture(
    'João,Maria,Pedro,Ana,Lucas,Beatriz,Gabriel,Juliana,Rafael,Fernanda,Gustavo,Camila,Felipe,Larissa,Bruno,Amanda,' +
      'Thiago,Letícia,Rodrigo,Patrícia,Leonardo,Mariana,Matheus,Bruna,André,Carolina,Vinícius,Aline,Diogo,Inês',
    'Silva,Santos,Oliveira,Souza,Rodrigues,Ferreira,Alves,Pereira,Lima,Gomes,Costa,Ribeiro,Martins,Carvalho,Almeida,' +
      'Lopes,Soares,Fernandes,Vieira,Barbosa,Rocha,Dias,Nascimento,Andrade,Moreira,Nunes,Marques,Machado,Mendes,' +
      'Freitas',
  ),
  african: culture(
    'Chinedu,Ngozi,Oluwaseun,Adaeze,Emeka,Funmilayo,Tunde,Chiamaka,Kwame,Ama,Kofi,Abena,Thabo,Lerato,Sipho,Nomvula,' +
      'Wanjiru,Kamau,Otieno,Achieng,Babajide,Yetunde,Ifeanyi,Zainab,Musa,Amina,Tendai,Rudo,Jabari,Imani',
    'Okafor,Adeyemi,Okonkwo,Balogun,Eze,Nwosu,Ogunleye,Adebayo,Mensah,Boateng,Asante,Owusu,Nkosi,Dlamini,Mokoena,' +
      'Ndlovu,Khumalo,Mwangi,Kariuki,Odhiambo,Ochieng,Abubakar,Bello,Danjuma,Osei,Chukwu,Afolabi,Oyelaran,Moyo,Banda',
  ),
} as const satisfies Record<string, Culture>;

export type CultureName = keyof typeof CULTURES;
