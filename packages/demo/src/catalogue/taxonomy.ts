/**
 * The demo catalogue's category tree: 8 departments, 40 categories, 150 product types. Each product type (the
 * third level) knows what its products are called, what they plausibly cost, the sizes they come in and which
 * family of products they belong to; each category knows the materials or finishes its products are made of.
 */

/** A product type's family: the wording of its descriptions (text.ts), and a drawing types may share (images/shapes.ts). */
export type Shape =
  | 'lamp' | 'sofa' | 'chair' | 'table' | 'shelf' | 'pan' | 'mug' | 'plate' | 'pillow'
  | 'laptop' | 'screen' | 'phone' | 'keyboard' | 'headphones' | 'speaker' | 'camera'
  | 'shirt' | 'dress' | 'trousers' | 'shoe' | 'bag' | 'watch' | 'glasses'
  | 'dumbbell' | 'bike' | 'tent' | 'ball' | 'bottle' | 'tube' | 'blocks' | 'book' | 'pen'
  | 'plant' | 'hammer' | 'drill';

export interface ProductType {
  /** Category name as shown in facets, plural ("Table Lamps"). */
  readonly category: string;
  /** What one product is called in its name ("Table Lamp"). */
  readonly noun: string;
  /** Price range in the shop's currency; prices are spread log-uniformly over it. */
  readonly minPrice: number;
  readonly maxPrice: number;
  /** Sizes a product may carry in its name ("40 cm"); empty when the name has no size. */
  readonly sizes: readonly string[];
  readonly shape: Shape;
  /** Materials of this type when the category's list would read oddly ("Cork Exercise Bike"). */
  readonly materials?: readonly string[];
}

export interface Category {
  readonly name: string;
  /** Materials, finishes or formats: the word between brand and noun ("Ceramic Table Lamp"). */
  readonly materials: readonly string[];
  readonly types: readonly ProductType[];
}

export interface Department {
  readonly name: string;
  readonly categories: readonly Category[];
}

/** Nouns that are not the category name minus its final "s". */
const IRREGULAR_NOUNS: Record<string, string> = {
  Headphones: 'Headphones', Earbuds: 'Earbuds', Trousers: 'Trousers', Sunglasses: 'Sunglasses',
  'Dumbbells': 'Dumbbell Set', 'Swim Goggles': 'Swim Goggles', 'Eau de Parfum': 'Eau de Parfum',
  'Eau de Toilette': 'Eau de Toilette', 'Body Mists': 'Body Mist', 'Pruning Shears': 'Pruning Shears',
  'Drinking Glasses': 'Drinking Glass Set', 'Coffee Tables': 'Coffee Table',
  'Bookcases': 'Bookcase', 'Swimsuits': 'Swimsuit', 'Sandals': 'Sandals', 'Sneakers': 'Sneakers', 'Boots': 'Boots',
  'Loafers': 'Loafers', 'Puzzles': 'Puzzle', 'Wrenches': 'Wrench Set',
  'Screwdriver Sets': 'Screwdriver Set', 'Resistance Bands': 'Resistance Band Set', 'Art Sets': 'Art Set',
  'Wooden Blocks': 'Block Set', 'Camera Lenses': 'Camera Lens', Scarves: 'Scarf', 'Coloured Pencils': 'Coloured Pencil Set',
  'Bedtime Stories': 'Bedtime Story Collection',
};

function singular(category: string): string {
  const irregular = IRREGULAR_NOUNS[category];
  if (irregular) return irregular;
  if (category.endsWith('ies')) return category.slice(0, -3) + 'y';
  if (/(sh|ch|x|ss)es$/.test(category)) return category.slice(0, -2);
  return category.replace(/s$/, '');
}

/**
 * `t('Table Lamps', 25, 180, 'lamp', '30 cm|40 cm|55 cm')`: a product type; sizes (and materials, when the
 * type overrides its category's) separated by `|`.
 */
function t(category: string, minPrice: number, maxPrice: number, shape: Shape, sizes = '', materials = ''): ProductType {
  const type: ProductType = { category, noun: singular(category), minPrice, maxPrice, shape, sizes: sizes ? sizes.split('|') : [] };
  return materials ? { ...type, materials: materials.split('|') } : type;
}

function c(name: string, materials: string, types: ProductType[]): Category {
  return { name, materials: materials.split('|'), types };
}

export const departments: readonly Department[] = [
  { name: 'Home & Kitchen', categories: [
    c('Lighting', 'Ceramic|Brass|Rattan|Glass|Oak|Linen|Matte Metal', [
      t('Table Lamps', 25, 180, 'lamp', '30 cm|40 cm|55 cm'), t('Floor Lamps', 60, 420, 'lamp', '150 cm|170 cm'),
      t('Pendant Lights', 35, 260, 'lamp', '25 cm|35 cm|50 cm'), t('Desk Lamps', 19, 140, 'lamp')]),
    c('Furniture', 'Oak|Walnut|Velvet|Linen|Leather|Pine|Steel', [
      t('Armchairs', 149, 990, 'chair'), t('Sofas', 399, 2900, 'sofa', '2 Seater|3 Seater|Corner'),
      t('Coffee Tables', 79, 690, 'table', '80 cm|100 cm|120 cm'), t('Bookcases', 89, 790, 'shelf', '3 Shelf|5 Shelf')]),
    c('Cookware', 'Cast Iron|Stainless Steel|Nonstick|Copper|Enamelled', [
      t('Frying Pans', 19, 160, 'pan', '24 cm|28 cm|32 cm'), t('Saucepans', 22, 180, 'pan', '16 cm|18 cm|20 cm'),
      t('Dutch Ovens', 49, 380, 'pan', '4 L|6 L'), t('Baking Trays', 9, 59, 'plate', '30 cm|40 cm')]),
    c('Tableware', 'Stoneware|Porcelain|Bamboo|Glass|Earthenware', [
      t('Dinner Plates', 14, 95, 'plate', 'Set of 4|Set of 6'), t('Mugs', 8, 45, 'mug', '300 ml|400 ml'),
      t('Drinking Glasses', 12, 70, 'mug', 'Set of 4|Set of 6', 'Glass|Crystal|Recycled Glass'), t('Serving Bowls', 15, 85, 'plate', '20 cm|28 cm')]),
    c('Bedding', 'Cotton|Linen|Wool|Bamboo|Flannel', [
      t('Duvet Covers', 35, 240, 'pillow', 'Single|Double|King'), t('Pillows', 15, 120, 'pillow', '50 x 75 cm|65 x 65 cm'),
      t('Throw Blankets', 25, 180, 'pillow', '130 x 170 cm'), t('Bath Towels', 9, 49, 'pillow', '70 x 140 cm')]),
  ] },
  { name: 'Electronics', categories: [
    c('Computers', 'Aluminium|Carbon Fibre|Magnesium|Recycled Plastic', [
      t('Laptops', 449, 3200, 'laptop', '13 inch|14 inch|16 inch'), t('Desktop Computers', 499, 3900, 'screen'),
      t('Monitors', 129, 1400, 'screen', '24 inch|27 inch|32 inch'), t('Keyboards', 29, 220, 'keyboard')]),
    c('Phones & Tablets', 'Aluminium|Glass|Silicone|Leather|Recycled Plastic', [
      t('Smartphones', 179, 1600, 'phone', '128 GB|256 GB|512 GB'), t('Tablets', 199, 1500, 'phone', '64 GB|128 GB|256 GB'),
      t('Phone Cases', 9, 69, 'phone', '', 'Silicone|Leather|Clear|Recycled Plastic'), t('Chargers', 12, 89, 'phone', '20 W|45 W|65 W', 'Compact|Fast|Wireless')]),
    c('Audio', 'Aluminium|Walnut|Fabric|Matte|Recycled Plastic', [
      t('Headphones', 39, 550, 'headphones'), t('Bluetooth Speakers', 29, 450, 'speaker'),
      t('Soundbars', 119, 1100, 'speaker'), t('Earbuds', 29, 330, 'headphones')]),
    c('TV & Video', 'Slim|Matte|Aluminium|Compact', [
      t('Televisions', 249, 3500, 'screen', '43 inch|55 inch|65 inch|75 inch'), t('Projectors', 149, 2200, 'camera', '', 'Compact|Portable|Short Throw|Laser'),
      t('Streaming Players', 29, 199, 'speaker')]),
    c('Cameras', 'Magnesium|Weatherproof|Compact|Aluminium|Carbon Fibre', [
      t('Digital Cameras', 299, 3800, 'camera'), t('Action Cameras', 99, 550, 'camera'),
      t('Camera Lenses', 149, 2400, 'camera', '35 mm|50 mm|85 mm'), t('Tripods', 25, 320, 'camera', '150 cm|180 cm')]),
  ] },
  { name: 'Fashion', categories: [
    c("Women's Clothing", 'Cotton|Linen|Silk|Wool|Viscose|Recycled Polyester', [
      t('Dresses', 29, 240, 'dress'), t('Blouses', 19, 120, 'shirt'), t('Skirts', 19, 130, 'dress'),
      t('Coats', 79, 490, 'shirt')]),
    c("Men's Clothing", 'Cotton|Linen|Wool|Denim|Flannel|Recycled Polyester', [
      t('Shirts', 19, 140, 'shirt'), t('Trousers', 29, 160, 'trousers'), t('Jackets', 59, 420, 'shirt'),
      t('Sweaters', 29, 190, 'shirt')]),
    c('Shoes', 'Leather|Suede|Canvas|Knit|Recycled Rubber', [
      t('Sneakers', 39, 220, 'shoe'), t('Boots', 59, 320, 'shoe'), t('Sandals', 19, 140, 'shoe'),
      t('Loafers', 49, 260, 'shoe')]),
    c('Bags', 'Leather|Canvas|Nylon|Recycled Polyester|Waxed Cotton', [
      t('Backpacks', 29, 260, 'bag', '20 L|30 L'), t('Handbags', 39, 590, 'bag'), t('Travel Bags', 49, 390, 'bag', '40 L|60 L'),
      t('Wallets', 15, 140, 'bag')]),
    c('Accessories', 'Stainless Steel|Leather|Acetate|Wool|Titanium', [
      t('Watches', 49, 1200, 'watch', '38 mm|42 mm'), t('Sunglasses', 19, 290, 'glasses'), t('Scarves', 15, 140, 'pillow'),
      t('Belts', 15, 120, 'bag', '90 cm|100 cm|110 cm')]),
  ] },
  { name: 'Sports & Outdoors', categories: [
    c('Fitness', 'Rubber|Steel|Cork|Foam|Neoprene', [
      t('Yoga Mats', 15, 120, 'pillow', '4 mm|6 mm'), t('Dumbbells', 19, 290, 'dumbbell', '5 kg|10 kg|20 kg', 'Rubber|Steel|Cast Iron|Neoprene'),
      t('Exercise Bikes', 199, 1800, 'bike', '', 'Steel|Aluminium|Folding'), t('Resistance Bands', 9, 49, 'dumbbell', '', 'Latex|Fabric|Natural Rubber')]),
    c('Cycling', 'Aluminium|Carbon|Steel|Reflective', [
      t('Bikes', 299, 4200, 'bike', '52 cm|56 cm|58 cm'), t('Bike Helmets', 29, 260, 'ball', 'S|M|L', 'Lightweight|Ventilated|Reflective|Carbon'),
      t('Bike Lights', 12, 120, 'lamp', '400 lm|800 lm', 'Rechargeable|Aluminium|Reflective')]),
    c('Camping', 'Ripstop|Down|Aluminium|Canvas|Titanium', [
      t('Tents', 69, 890, 'tent', '2 Person|4 Person'), t('Sleeping Bags', 39, 460, 'pillow', '', 'Down|Synthetic|Ripstop|Lightweight'),
      t('Camping Stoves', 29, 220, 'pan', '', 'Aluminium|Titanium|Compact|Steel'), t('Headlamps', 12, 110, 'lamp', '300 lm|600 lm', 'Rechargeable|Waterproof|Aluminium')]),
    c('Team Sports', 'Synthetic Leather|Rubber|Graphite|Composite', [
      t('Footballs', 12, 140, 'ball', 'Size 4|Size 5'), t('Basketballs', 15, 160, 'ball', 'Size 6|Size 7'),
      t('Tennis Rackets', 29, 290, 'ball', '', 'Graphite|Composite|Aluminium')]),
    c('Water Sports', 'Neoprene|Recycled Nylon|Silicone|Inflatable', [
      t('Swimsuits', 19, 120, 'dress'), t('Swim Goggles', 9, 59, 'glasses', '', 'Silicone|Anti-Fog|Mirrored'), t('Paddle Boards', 249, 1400, 'tent', '10 ft|11 ft', 'Inflatable|Epoxy|Bamboo')]),
  ] },
  { name: 'Beauty & Health', categories: [
    c('Skin Care', 'Hydrating|Vitamin C|Hyaluronic|Fragrance-Free|Organic', [
      t('Face Creams', 9, 120, 'bottle', '50 ml'), t('Cleansers', 7, 45, 'bottle', '150 ml|250 ml'),
      t('Serums', 12, 140, 'bottle', '30 ml'), t('Sunscreens', 8, 49, 'bottle', 'SPF 30|SPF 50')]),
    c('Hair Care', 'Argan Oil|Repairing|Volumising|Ionic|Organic', [
      t('Shampoos', 5, 39, 'bottle', '250 ml|500 ml'), t('Conditioners', 5, 39, 'bottle', '250 ml|500 ml'),
      t('Hair Dryers', 29, 420, 'drill', '', 'Ionic|Compact|Professional|Travel'), t('Brushes', 7, 59, 'pen', '', 'Bamboo|Boar Bristle|Detangling|Paddle')]),
    c('Fragrance', 'Floral|Woody|Citrus|Amber|Fresh', [
      t('Eau de Parfum', 29, 260, 'bottle', '50 ml|100 ml'), t('Eau de Toilette', 19, 160, 'bottle', '50 ml|100 ml'),
      t('Body Mists', 9, 49, 'bottle', '250 ml'), t('Scented Candles', 12, 79, 'mug', '200 g|400 g', 'Soy Wax|Beeswax|Floral|Woody')]),
    c('Makeup', 'Matte|Satin|Long-Wear|Vegan|Mineral', [
      t('Lipsticks', 7, 49, 'tube'), t('Mascaras', 7, 45, 'tube'), t('Foundations', 9, 59, 'bottle', '30 ml'),
      t('Eyeshadow Palettes', 12, 79, 'plate')]),
    c('Personal Care', 'Rechargeable|Waterproof|Bamboo|Stainless Steel', [
      t('Electric Toothbrushes', 25, 290, 'tube'), t('Shavers', 29, 390, 'phone'), t('Hair Clippers', 19, 160, 'phone')]),
  ] },
  { name: 'Toys & Games', categories: [
    c('Building Toys', 'Wooden|Plastic|Magnetic|Recycled', [
      t('Building Sets', 15, 290, 'blocks', '250 Pieces|500 Pieces|1000 Pieces'), t('Marble Runs', 19, 120, 'blocks'),
      t('Wooden Blocks', 12, 79, 'blocks', '50 Pieces|100 Pieces')]),
    c('Board Games', 'Classic|Travel|Deluxe|Cooperative', [
      t('Strategy Games', 19, 120, 'blocks'), t('Family Games', 12, 59, 'blocks'),
      t('Puzzles', 9, 49, 'blocks', '500 Pieces|1000 Pieces|2000 Pieces'), t('Card Games', 7, 35, 'book')]),
    c('Outdoor Toys', 'Wooden|Aluminium|Inflatable|Plastic', [
      t('Scooters', 39, 260, 'bike'), t('Kites', 12, 89, 'tent', '', 'Ripstop|Nylon|Stunt'), t('Swing Sets', 89, 690, 'tent', '', 'Wooden|Steel|Cedar'),
      t('Sandpit Toys', 9, 45, 'mug')]),
    c('Dolls & Figures', 'Plush|Vinyl|Wooden|Organic Cotton', [
      t('Dolls', 15, 120, 'dress', '30 cm|45 cm'), t('Action Figures', 9, 69, 'blocks', '15 cm|30 cm'),
      t('Plush Toys', 9, 79, 'pillow', '25 cm|40 cm', 'Organic Cotton|Fleece|Velvet|Recycled Fibre'), t('Dollhouses', 49, 390, 'shelf')]),
    c('Learning', 'Wooden|Electronic|Magnetic|Recycled', [
      t('Science Kits', 15, 99, 'bottle'), t('Art Sets', 12, 79, 'pen'), t('Musical Toys', 15, 120, 'speaker'),
      t('Coding Robots', 49, 290, 'blocks')]),
  ] },
  { name: 'Books & Stationery', categories: [
    c('Fiction', 'Hardcover|Paperback|Illustrated|Collector', [
      t('Novels', 8, 35, 'book'), t('Crime Novels', 8, 30, 'book'), t('Science Fiction Novels', 8, 32, 'book'),
      t('Short Story Collections', 8, 28, 'book')]),
    c('Non-Fiction', 'Hardcover|Paperback|Illustrated|Pocket', [
      t('Cookbooks', 12, 49, 'book'), t('Biographies', 10, 39, 'book'), t('Travel Guides', 9, 35, 'book'),
      t('History Books', 10, 45, 'book')]),
    c("Children's Books", 'Hardcover|Board Book|Paperback|Illustrated', [
      t('Picture Books', 6, 25, 'book'), t('Activity Books', 5, 19, 'book'), t('Bedtime Stories', 6, 24, 'book')]),
    c('Stationery', 'Recycled Paper|Leather|Bamboo|Linen|Brass', [
      t('Notebooks', 5, 45, 'book', 'A5|A4'), t('Fountain Pens', 12, 290, 'pen'), t('Planners', 9, 49, 'book', 'A5|A4'),
      t('Desk Organisers', 12, 89, 'shelf')]),
    c('Art Supplies', 'Professional|Student|Watercolour|Acrylic', [
      t('Paint Sets', 9, 120, 'plate', '12 Colours|24 Colours'), t('Sketchbooks', 6, 39, 'book', 'A5|A4|A3'),
      t('Easels', 29, 260, 'shelf'), t('Coloured Pencils', 6, 69, 'pen', '24 Colours|48 Colours')]),
  ] },
  { name: 'Garden & DIY', categories: [
    c('Garden Tools', 'Stainless Steel|Ash Wood|Carbon Steel|Fibreglass', [
      t('Pruning Shears', 12, 89, 'hammer'), t('Spades', 19, 99, 'hammer'), t('Garden Hoses', 15, 120, 'pan', '15 m|25 m', 'Expandable|Rubber|Reinforced'),
      t('Watering Cans', 9, 59, 'mug', '5 L|10 L')]),
    c('Power Tools', 'Cordless|Brushless|Compact|Heavy Duty', [
      t('Drills', 39, 390, 'drill', '12 V|18 V'), t('Circular Saws', 59, 420, 'drill'), t('Sanders', 29, 260, 'drill'),
      t('Jigsaws', 39, 290, 'drill')]),
    c('Hand Tools', 'Forged Steel|Chrome Vanadium|Fibreglass|Hickory', [
      t('Hammers', 9, 69, 'hammer', '450 g|700 g'), t('Screwdriver Sets', 12, 89, 'pen', '', 'Chrome Vanadium|Precision|Insulated'), t('Wrenches', 15, 140, 'hammer'),
      t('Tape Measures', 6, 39, 'watch', '5 m|8 m', 'Magnetic|Rubberised|Steel')]),
    c('Plants & Pots', 'Terracotta|Concrete|Ceramic|Recycled Plastic|Rattan', [
      t('Plant Pots', 8, 89, 'plant', '15 cm|25 cm|35 cm'), t('Planters', 19, 190, 'plant', '60 cm|80 cm'),
      t('Seed Kits', 6, 39, 'plant', '', 'Herb|Wildflower|Vegetable|Organic'), t('Indoor Plants', 9, 120, 'plant', 'Small|Medium|Large', 'Potted|Hanging|Air-Purifying')]),
    c('Outdoor Furniture', 'Teak|Acacia|Aluminium|Rattan|Recycled Plastic', [
      t('Garden Chairs', 39, 390, 'chair'), t('Garden Tables', 89, 990, 'table', '4 Seater|6 Seater'),
      t('Parasols', 39, 390, 'tent', '2.5 m|3 m'), t('Hammocks', 29, 240, 'tent')]),
  ] },
];
