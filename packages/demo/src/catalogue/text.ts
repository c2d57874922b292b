import type { Shape } from './taxonomy.ts';

/** Product lines placed between brand and material in some names ("Lumio Studio Ceramic Table Lamp"). */
export const productLines = [
  'Classic', 'Essential', 'Pro', 'Compact', 'Deluxe', 'Nordic', 'Urban', 'Everyday', 'Studio', 'Premium',
  'Heritage', 'Signature', 'Eco', 'Lite', 'Max', 'Original',
];

/** Second half of a description's first sentence, by illustration family (so the sentence fits the product). */
export const featuresByShape: Record<Shape, readonly string[]> = {
  lamp: ['with a warm, dimmable light', 'with an energy-saving LED included', 'with a soft diffused glow'],
  sofa: ['with deep seats and removable covers', 'with a solid hardwood frame', 'with firm, supportive cushions'],
  chair: ['with a curved backrest for long reading sessions', 'with a sturdy frame', 'with a comfortable padded seat'],
  table: ['with a scratch-resistant top', 'with a lower shelf for storage', 'assembled in minutes'],
  shelf: ['with adjustable shelves', 'with wall fixings included', 'with plenty of room for books and decor'],
  pan: ['that heats evenly on every hob, induction included', 'with a stay-cool handle', 'that goes from hob to oven'],
  mug: ['that is dishwasher safe', 'with a comfortable rounded rim', 'made to be used every day'],
  plate: ['that is dishwasher and microwave safe', 'with a subtle glazed finish', 'that stacks neatly'],
  pillow: ['that stays soft wash after wash', 'with a breathable weave', 'with a generous, cosy feel'],
  laptop: ['with an all-day battery', 'with a bright, sharp display', 'with a quiet, backlit keyboard'],
  screen: ['with vivid colours and deep contrast', 'with slim bezels', 'with low-blue-light modes'],
  phone: ['with fast charging', 'with a long-lasting battery', 'with a drop-tested design'],
  keyboard: ['with quiet, responsive keys', 'with a wireless connection to three devices', 'with adjustable backlight'],
  headphones: ['with active noise cancelling', 'with rich, balanced sound', 'with a battery that lasts for days'],
  speaker: ['with room-filling sound', 'with deep, punchy bass', 'that pairs in seconds'],
  camera: ['with sharp, fast autofocus', 'that is ready for travel', 'with stabilised video'],
  shirt: ['with a relaxed, modern fit', 'that is easy to care for', 'cut for everyday comfort'],
  dress: ['with a flattering cut', 'that moves easily', 'made for warm days'],
  trousers: ['with a tapered leg', 'with a comfortable stretch', 'with deep pockets'],
  shoe: ['with a cushioned insole', 'with a grippy sole', 'that feels broken-in from day one'],
  bag: ['with plenty of pockets', 'with sturdy stitching', 'with a padded strap'],
  watch: ['with a scratch-resistant face', 'that is water resistant to 50 m', 'with an easy-swap strap'],
  glasses: ['with full UV protection', 'with a lightweight frame', 'that sits comfortably all day'],
  dumbbell: ['with a non-slip grip', 'for strength training at home', 'that stores compactly'],
  bike: ['with smooth, reliable gears', 'with a lightweight frame', 'built for daily rides'],
  tent: ['that sets up in minutes', 'that stands up to wind and rain', 'that packs down small'],
  ball: ['with a durable outer layer', 'for training and matches', 'with a consistent bounce'],
  bottle: ['with a light, non-greasy texture', 'suited to sensitive skin', 'with natural ingredients'],
  tube: ['that lasts all day', 'with a precise applicator', 'in a refillable case'],
  blocks: ['that sparks hours of play', 'for ages 6 and up', 'that grows with every set'],
  book: ['with a beautifully printed cover', 'that readers keep coming back to', 'with a ribbon bookmark'],
  pen: ['with a smooth, even line', 'that is comfortable to hold', 'in a reusable case'],
  plant: ['with drainage holes', 'that suits indoor and outdoor spaces', 'that shows off any plant'],
  hammer: ['with a shock-absorbing handle', 'with a hardened head', 'built to last for years'],
  drill: ['with variable speed control', 'with a long-life battery', 'with a carry case included'],
};

/** Second sentences, by department (same order as `departments`). */
export const closingsByDepartment: readonly (readonly string[])[] = [
  ['Designed to make every room feel like home.', 'Easy to clean and built for everyday use.', 'A timeless piece that suits any interior.'],
  ['Comes with a two-year warranty.', 'Set up in minutes, right out of the box.', 'Designed to stay fast and reliable for years.'],
  ['Easy to wear and easy to style.', 'Made with responsibly sourced materials.', 'A wardrobe staple for every season.'],
  ['Ready for your next adventure.', 'Tested outdoors in all weathers.', 'Built to keep up with your training.'],
  ['Dermatologically tested.', 'Free from parabens and never tested on animals.', 'A small everyday luxury.'],
  ['Safety tested and built to survive enthusiastic play.', 'A great gift for curious minds.', 'Fun for the whole family.'],
  ['A perfect gift for keen readers.', 'Printed on responsibly sourced paper.', 'Loved by readers and reviewers alike.'],
  ['Built for gardeners and makers alike.', 'Weatherproof and easy to maintain.', 'Ready for your next project.'],
];
