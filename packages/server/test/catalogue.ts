/** The small catalogue the client compatibility suites write and search. */
export const PRODUCTS = [
  { objectID: 'p1', name: 'Lumio ceramic table lamp', brand: 'Lumio', color: 'red', price: 40, stock: 3 },
  { objectID: 'p2', name: 'Lumio brass floor lamp', brand: 'Lumio', color: 'gold', price: 120, stock: 1 },
  { objectID: 'p3', name: 'Nordhus oak desk', brand: 'Nordhus', color: 'brown', price: 300, stock: 5 },
  { objectID: 'p4', name: 'Nordhus oak chair', brand: 'Nordhus', color: 'brown', price: 90, stock: 0 },
  { objectID: 'p5', name: 'Apple wireless keyboard', brand: 'Apple', color: 'white', price: 99, stock: 7 },
];

export const SETTINGS = {
  searchableAttributes: ['name', 'brand'],
  attributesForFaceting: ['searchable(brand)', 'color', 'price'],
  customRanking: ['desc(stock)'],
};
