// Reference data the demo seed draws from: real ZIP codes (zones from the 2023 USDA map), the
// questions people text and the answers Sprout gives, and the texts of summaries and failures.

export interface SeedZip {
  zip: string;
  city: string;
  state: string;
  /** The broad region of the state, as the gardening lib names it. */
  region: string;
  /** USDA 2023 hardiness zone of the ZIP. */
  zone: string;
  /** A real area code of the city, for phone numbers. */
  areaCode: string;
}

const z = (
  zip: string,
  city: string,
  state: string,
  region: string,
  zone: string,
  areaCode: string,
): SeedZip => ({
  zip,
  city,
  state,
  region,
  zone,
  areaCode,
});

export const SEED_ZIPS: readonly SeedZip[] = [
  z('97201', 'Portland', 'OR', 'Pacific Northwest', '8b', '503'),
  z('97401', 'Eugene', 'OR', 'Pacific Northwest', '8b', '541'),
  z('98101', 'Seattle', 'WA', 'Pacific Northwest', '9a', '206'),
  z('98501', 'Olympia', 'WA', 'Pacific Northwest', '8a', '360'),
  z('99201', 'Spokane', 'WA', 'Pacific Northwest', '7a', '509'),
  z('94612', 'Oakland', 'CA', 'California', '10a', '510'),
  z('95814', 'Sacramento', 'CA', 'California', '9b', '916'),
  z('90012', 'Los Angeles', 'CA', 'California', '10b', '213'),
  z('92101', 'San Diego', 'CA', 'California', '11a', '619'),
  z('93721', 'Fresno', 'CA', 'California', '9b', '559'),
  z('95060', 'Santa Cruz', 'CA', 'California', '9b', '831'),
  z('85004', 'Phoenix', 'AZ', 'Southwest', '10a', '602'),
  z('85701', 'Tucson', 'AZ', 'Southwest', '9b', '520'),
  z('87102', 'Albuquerque', 'NM', 'Southwest', '7b', '505'),
  z('89101', 'Las Vegas', 'NV', 'Southwest', '9b', '702'),
  z('89501', 'Reno', 'NV', 'Southwest', '7b', '775'),
  z('80202', 'Denver', 'CO', 'Mountain West', '6a', '303'),
  z('80521', 'Fort Collins', 'CO', 'Mountain West', '5b', '970'),
  z('84101', 'Salt Lake City', 'UT', 'Mountain West', '7b', '801'),
  z('83702', 'Boise', 'ID', 'Mountain West', '7a', '208'),
  z('59801', 'Missoula', 'MT', 'Mountain West', '5b', '406'),
  z('82001', 'Cheyenne', 'WY', 'Mountain West', '5b', '307'),
  z('78701', 'Austin', 'TX', 'South Central', '9a', '512'),
  z('75201', 'Dallas', 'TX', 'South Central', '8b', '214'),
  z('77002', 'Houston', 'TX', 'South Central', '9b', '713'),
  z('78205', 'San Antonio', 'TX', 'South Central', '9a', '210'),
  z('79901', 'El Paso', 'TX', 'South Central', '8b', '915'),
  z('73102', 'Oklahoma City', 'OK', 'South Central', '7b', '405'),
  z('72201', 'Little Rock', 'AR', 'South Central', '8a', '501'),
  z('70112', 'New Orleans', 'LA', 'South Central', '9b', '504'),
  z('60601', 'Chicago', 'IL', 'Midwest', '6b', '312'),
  z('61820', 'Champaign', 'IL', 'Midwest', '6a', '217'),
  z('46204', 'Indianapolis', 'IN', 'Midwest', '6b', '317'),
  z('43215', 'Columbus', 'OH', 'Midwest', '6b', '614'),
  z('44113', 'Cleveland', 'OH', 'Midwest', '7a', '216'),
  z('48226', 'Detroit', 'MI', 'Midwest', '6b', '313'),
  z('49503', 'Grand Rapids', 'MI', 'Midwest', '6a', '616'),
  z('53703', 'Madison', 'WI', 'Midwest', '5b', '608'),
  z('55401', 'Minneapolis', 'MN', 'Midwest', '5a', '612'),
  z('50309', 'Des Moines', 'IA', 'Midwest', '5b', '515'),
  z('63101', 'St. Louis', 'MO', 'Midwest', '7a', '314'),
  z('64106', 'Kansas City', 'MO', 'Midwest', '6b', '816'),
  z('66603', 'Topeka', 'KS', 'Midwest', '6b', '785'),
  z('68102', 'Omaha', 'NE', 'Midwest', '6a', '402'),
  z('57104', 'Sioux Falls', 'SD', 'Midwest', '5a', '605'),
  z('58102', 'Fargo', 'ND', 'Midwest', '4a', '701'),
  z('04101', 'Portland', 'ME', 'Northeast', '6a', '207'),
  z('03301', 'Concord', 'NH', 'Northeast', '5b', '603'),
  z('05401', 'Burlington', 'VT', 'Northeast', '5b', '802'),
  z('02108', 'Boston', 'MA', 'Northeast', '7a', '617'),
  z('02903', 'Providence', 'RI', 'Northeast', '7a', '401'),
  z('06103', 'Hartford', 'CT', 'Northeast', '6b', '860'),
  z('10001', 'New York', 'NY', 'Northeast', '7b', '212'),
  z('12601', 'Poughkeepsie', 'NY', 'Northeast', '6b', '845'),
  z('14202', 'Buffalo', 'NY', 'Northeast', '6b', '716'),
  z('07102', 'Newark', 'NJ', 'Northeast', '7b', '973'),
  z('19103', 'Philadelphia', 'PA', 'Northeast', '7b', '215'),
  z('15222', 'Pittsburgh', 'PA', 'Northeast', '7a', '412'),
  z('19801', 'Wilmington', 'DE', 'Mid-Atlantic', '7b', '302'),
  z('21201', 'Baltimore', 'MD', 'Mid-Atlantic', '8a', '410'),
  z('20001', 'Washington', 'DC', 'Mid-Atlantic', '8a', '202'),
  z('23219', 'Richmond', 'VA', 'Mid-Atlantic', '7b', '804'),
  z('22201', 'Arlington', 'VA', 'Mid-Atlantic', '7b', '703'),
  z('25301', 'Charleston', 'WV', 'Mid-Atlantic', '7a', '304'),
  z('27601', 'Raleigh', 'NC', 'Southeast', '8a', '919'),
  z('28202', 'Charlotte', 'NC', 'Southeast', '8a', '704'),
  z('29401', 'Charleston', 'SC', 'Southeast', '9a', '843'),
  z('30303', 'Atlanta', 'GA', 'Southeast', '8a', '404'),
  z('31401', 'Savannah', 'GA', 'Southeast', '9a', '912'),
  z('32801', 'Orlando', 'FL', 'Southeast', '10a', '407'),
  z('33130', 'Miami', 'FL', 'Southeast', '11a', '305'),
  z('32301', 'Tallahassee', 'FL', 'Southeast', '9a', '850'),
  z('35203', 'Birmingham', 'AL', 'Southeast', '8a', '205'),
  z('39201', 'Jackson', 'MS', 'Southeast', '8b', '601'),
  z('37203', 'Nashville', 'TN', 'Southeast', '7b', '615'),
  z('37902', 'Knoxville', 'TN', 'Southeast', '7b', '865'),
  z('40202', 'Louisville', 'KY', 'Southeast', '7a', '502'),
];

export interface SeedTopic {
  /** A topic of the gardening lib's taxonomy. */
  topic: string;
  /** Question and answer pairs; answers may use {zone} and {city}. */
  exchanges: ReadonlyArray<readonly [question: string, answer: string]>;
  summary: string;
  keyOutcomes: string;
  nextSteps: string;
}

export const SEED_TOPICS: readonly SeedTopic[] = [
  {
    topic: 'tomatoes',
    exchanges: [
      [
        'When should I plant tomatoes outside?',
        'In zone {zone}, set tomato transplants out about 2 weeks after your last frost, once nights stay above 50F. Harden them off for a week first and plant them deep, up to the first leaves.',
      ],
      [
        'My tomato leaves are turning yellow from the bottom up. What is wrong?',
        'Yellowing lower leaves are usually early blight or a nitrogen shortage. Pinch off the spotted leaves, mulch so soil does not splash up, and water at the base in the morning. A side-dress of compost helps too.',
      ],
      [
        'How often should I water my tomato plants?',
        'Water deeply 1-2 times a week, about 1-2 inches in total, more in heat waves. Even moisture prevents blossom end rot and split fruit. Mulch 2-3 inches to keep it steady.',
      ],
      [
        'Should I prune the suckers on my tomatoes?',
        'For indeterminate varieties, pinch suckers below the first flower cluster to keep plants open and airy. Leave them on determinate types: that is where their fruit comes from.',
      ],
      [
        'Why are my tomatoes cracking?',
        'Cracks come from uneven watering: a dry spell then a heavy soak. Keep moisture even with mulch and regular deep watering, and pick fruit at first blush before a big rain.',
      ],
    ],
    summary: 'Discussed growing tomatoes: timing, watering and common leaf and fruit problems.',
    keyOutcomes: 'Planting window and a watering routine for tomatoes.',
    nextSteps: 'Mulch the beds and check lower leaves weekly for spots.',
  },
  {
    topic: 'peppers',
    exchanges: [
      [
        'My pepper plants have flowers but no peppers. Why?',
        'Peppers drop flowers when nights are above 75F or below 60F, or when the soil dries out. Keep watering even, skip extra nitrogen, and fruit set should resume as temperatures settle.',
      ],
      [
        'When can I start pepper seeds indoors?',
        'Start peppers 8-10 weeks before your last frost. In zone {zone} that is late winter. Use a heat mat at 80F for germination and strong light right after they sprout.',
      ],
      [
        'Are my jalapenos ready to pick?',
        'Jalapenos are ready when firm, glossy and 3-4 inches long, usually green. Leave them to turn red for a sweeter, hotter pepper. Small cracks (corking) on the skin are normal.',
      ],
    ],
    summary: 'Talked through pepper seed starting, fruit set and harvest timing.',
    keyOutcomes: 'Knows when to start seeds and why blossoms drop.',
    nextSteps: 'Keep soil evenly moist and harvest regularly to encourage more fruit.',
  },
  {
    topic: 'lettuce',
    exchanges: [
      [
        'Why is my lettuce bolting already?',
        'Lettuce bolts when days lengthen and temperatures pass about 75F. Grow slow-bolting varieties, give afternoon shade, and sow small batches every 2 weeks so you always have young plants.',
      ],
      [
        'Can I grow lettuce in the fall?',
        'Yes, fall is ideal. In zone {zone}, sow 6-8 weeks before your first frost. Lettuce handles light frost, and a row cover stretches the harvest by weeks.',
      ],
      [
        'How do I harvest lettuce so it keeps growing?',
        'Pick the outer leaves and leave the center crown, or cut the whole head 1 inch above the soil. Both methods give you 2-3 more cuttings in cool weather.',
      ],
    ],
    summary: 'Covered lettuce bolting, succession sowing and cut-and-come-again harvests.',
    keyOutcomes: 'A plan for succession sowing and a fall crop.',
    nextSteps: 'Sow a new row in two weeks and add shade cloth for afternoons.',
  },
  {
    topic: 'herbs',
    exchanges: [
      [
        'My basil keeps flowering. Should I cut the flowers?',
        'Yes, pinch flower buds as soon as they show and cut stems just above a pair of leaves. That keeps basil leafy and sweet. Harvest often: it grows back bushier.',
      ],
      [
        'Which herbs come back every year?',
        'In zone {zone}, thyme, oregano, sage, chives and mint come back each year. Rosemary and lavender need good drainage and may need winter protection in colder zones. Basil and cilantro are annuals.',
      ],
      [
        'Can I grow herbs on a windowsill?',
        'Yes: a south or west window with 6 hours of sun suits basil, chives, parsley and thyme. Use pots with drainage holes and let the top inch of soil dry between waterings.',
      ],
    ],
    summary: 'Discussed herb care: pinching basil, perennial herbs and growing indoors.',
    keyOutcomes: 'Knows which herbs are perennial locally.',
    nextSteps: 'Pinch basil weekly and move windowsill herbs to the sunniest window.',
  },
  {
    topic: 'pests',
    exchanges: [
      [
        'Something is eating holes in my kale leaves',
        'Small round holes are usually cabbage worms or flea beetles. Check leaf undersides for green caterpillars and pick them off, or spray Bt, which only affects caterpillars. Row covers keep moths off.',
      ],
      [
        'How do I get rid of aphids without chemicals?',
        'Knock aphids off with a strong spray of water every few days, and let ladybugs and lacewings do the rest. Insecticidal soap works on heavy clusters; spray in the evening.',
      ],
      [
        'Slugs are destroying my seedlings',
        'Go out at dusk with a flashlight and hand-pick them, set beer traps sunk level with the soil, and use iron phosphate bait, which is safe around pets. Water in the morning so beds are dry at night.',
      ],
      [
        'What are these tiny white flies on my plants?',
        'Those are likely whiteflies. Yellow sticky traps catch adults, and insecticidal soap or neem oil on leaf undersides every 5-7 days breaks their cycle. Avoid excess nitrogen, which they love.',
      ],
    ],
    summary: 'Identified a garden pest and went through organic control options.',
    keyOutcomes: 'Pest identified with a hands-on control plan.',
    nextSteps: 'Inspect leaf undersides every few days and repeat treatment as needed.',
  },
  {
    topic: 'diseases',
    exchanges: [
      [
        'There is white powder on my squash leaves',
        'That is powdery mildew. Remove the worst leaves, improve airflow, and spray a mix of 1 part milk to 2 parts water weekly. Water the soil, not the leaves.',
      ],
      [
        'My cucumber plants are wilting even though I water them',
        'Sudden wilting despite watering points to bacterial wilt, spread by cucumber beetles. Cut a stem and look for sticky strands. Remove infected plants and use row covers until flowering next time.',
      ],
      [
        'Black spots on my rose leaves, what do I do?',
        'That is black spot, a fungus. Pick off and bin spotted leaves, clean up fallen ones, and water at the base. A sulfur or neem spray every 7-10 days protects new growth.',
      ],
    ],
    summary: 'Diagnosed a plant disease and discussed treatment and prevention.',
    keyOutcomes: 'Disease identified; infected material to be removed.',
    nextSteps: 'Improve airflow and water at soil level going forward.',
  },
  {
    topic: 'watering',
    exchanges: [
      [
        'How much should I water my vegetable garden?',
        'Most vegetables need about 1 inch of water a week, more in hot dry spells. Water deeply and less often so roots grow down. Early morning is best; a finger test 2 inches deep tells you when.',
      ],
      [
        'Is it ok to water in the evening?',
        'Morning is better: leaves dry quickly, which prevents fungus. If evening is your only time, water the soil, not the leaves, and finish before dusk.',
      ],
      [
        'Should I get drip irrigation?',
        'Drip saves 30-50% of water and keeps leaves dry, which cuts disease. A simple kit with a timer costs little and pays off in one summer, especially in {city}.',
      ],
    ],
    summary: 'Set up a watering routine: how much, when and how.',
    keyOutcomes: 'Deep, infrequent morning watering; considering drip irrigation.',
    nextSteps: 'Use the finger test before watering and mulch to hold moisture.',
  },
  {
    topic: 'soil',
    exchanges: [
      [
        'My soil is heavy clay. How do I improve it?',
        'Work in 2-3 inches of compost every season and never dig it wet. Over a couple of years clay turns rich and crumbly. Raised beds give you good soil right away.',
      ],
      [
        'Do I need a soil test?',
        'A soil test is the best $20 you can spend: it shows pH and nutrients so you add only what is missing. Your county extension office in {city} can run one.',
      ],
      [
        'What pH do vegetables like?',
        'Most vegetables like pH 6.0-7.0. Add garden lime to raise it and elemental sulfur to lower it, slowly and based on a soil test. Blueberries are the exception: they want 4.5-5.5.',
      ],
    ],
    summary: 'Talked about improving soil structure and testing pH and nutrients.',
    keyOutcomes: 'Plan to add compost and get a soil test.',
    nextSteps: 'Send a soil sample to the extension office.',
  },
  {
    topic: 'compost',
    exchanges: [
      [
        'How do I start composting?',
        'Mix roughly 3 parts browns (dry leaves, cardboard) with 1 part greens (kitchen scraps, grass). Keep it as damp as a wrung-out sponge and turn it every week or two. It is ready in 2-6 months.',
      ],
      [
        'My compost pile smells bad',
        'A sour smell means too many greens or too much water. Mix in dry leaves or shredded cardboard and turn it to add air. A healthy pile smells earthy.',
      ],
    ],
    summary: 'Explained how to start and troubleshoot a compost pile.',
    keyOutcomes: 'Balanced browns and greens; pile to be turned regularly.',
    nextSteps: 'Add shredded cardboard and turn the pile this weekend.',
  },
  {
    topic: 'fruit trees',
    exchanges: [
      [
        'When should I prune my apple tree?',
        'Prune apples in late winter while dormant, before buds swell. Remove dead, crossing and inward-growing branches, and never take more than a quarter of the tree in one year.',
      ],
      [
        'What fruit trees grow well here?',
        'In zone {zone}, check the chill hours a variety needs. Apples, pears and plums suit colder zones; figs, citrus and low-chill peaches suit warmer ones. Your local nursery stocks varieties that fit.',
      ],
      [
        'My peach tree has curled red leaves',
        'That is peach leaf curl. It cannot be fixed this season, but a copper spray in late fall after leaf drop, and again before buds open, prevents it next year.',
      ],
    ],
    summary: 'Discussed fruit tree choice, pruning timing and a leaf problem.',
    keyOutcomes: 'Pruning window and dormant-season spray plan.',
    nextSteps: 'Put the dormant pruning and spray dates on the calendar.',
  },
  {
    topic: 'lawn',
    exchanges: [
      [
        'When should I overseed my lawn?',
        'For cool-season grasses, overseed in early fall when soil is warm and nights are cool. Warm-season grasses like bermuda are best seeded in late spring. Keep new seed moist until it is 2 inches tall.',
      ],
      [
        'How do I get rid of clover in my lawn?',
        'Clover thrives in low-nitrogen soil. Feeding the lawn and mowing at 3 inches crowds it out. Many people keep it: it stays green, feeds bees and adds nitrogen.',
      ],
    ],
    summary: 'Lawn care: overseeding timing and weed management.',
    keyOutcomes: 'Overseeding window for the grass type.',
    nextSteps: 'Raise mowing height to 3 inches.',
  },
  {
    topic: 'planting schedule',
    exchanges: [
      [
        'What can I plant right now?',
        'In zone {zone} this time of year, cool-season crops like lettuce, spinach, peas and radishes do well, and warm crops follow after your last frost. I can send a planting calendar for {city}.',
      ],
      [
        'When is the last frost date here?',
        'For zone {zone} around {city}, the average last frost falls in spring; plant tender crops 1-2 weeks after it to be safe, and keep frost cloth handy for late cold snaps.',
      ],
      [
        'Is it too late to plant beans?',
        'Bush beans mature in about 55 days, so you can sow until roughly 2 months before your first fall frost. Sow every 2-3 weeks for a steady harvest.',
      ],
    ],
    summary: 'Worked out what to plant now and the local frost dates.',
    keyOutcomes: 'A planting calendar matched to the local zone.',
    nextSteps: 'Sow cool-season crops now and warm-season crops after last frost.',
  },
  {
    topic: 'raised beds',
    exchanges: [
      [
        'How deep should a raised bed be?',
        'Eight to 12 inches suits most vegetables; 18-24 inches if you want less bending or have poor soil below. Fill with about 60% topsoil and 40% compost.',
      ],
      [
        'What wood is safe for raised beds?',
        'Untreated cedar or redwood lasts 10+ years. Modern pressure-treated lumber (ACQ) is considered safe for vegetables; avoid old railroad ties and anything treated with creosote.',
      ],
    ],
    summary: 'Planned a raised bed build: depth, materials and soil mix.',
    keyOutcomes: 'Bed dimensions and soil mix decided.',
    nextSteps: 'Order cedar boards and compost.',
  },
  {
    topic: 'containers',
    exchanges: [
      [
        'What vegetables grow well in pots on a balcony?',
        'Cherry tomatoes, peppers, lettuce, herbs, bush beans and radishes all do well in containers. Use pots at least 5 gallons for tomatoes, with drainage holes and a quality potting mix.',
      ],
      [
        'How often do I water container plants?',
        'Containers dry out fast: check daily in summer and water when the top inch is dry, until water runs out the bottom. Bigger pots and self-watering containers help a lot.',
      ],
    ],
    summary: 'Container gardening on a balcony: plant choice and watering.',
    keyOutcomes: 'Suitable crops and pot sizes chosen.',
    nextSteps: 'Get 5-gallon pots and a quality potting mix.',
  },
  {
    topic: 'frost protection',
    exchanges: [
      [
        'Frost tonight, how do I protect my plants?',
        'Water the soil in the afternoon (moist soil holds heat), then cover plants with frost cloth, sheets or buckets down to the ground before sunset. Remove covers in the morning. Avoid plastic touching leaves.',
      ],
      [
        'Will my plants survive a light frost?',
        'Cool-season crops like kale, broccoli, spinach and carrots handle light frost, and some taste sweeter after. Tomatoes, peppers, basil and squash are damaged at 32F, so cover or harvest them.',
      ],
    ],
    summary: 'Frost protection for tender plants.',
    keyOutcomes: 'Plants covered before the frost.',
    nextSteps: 'Keep frost cloth ready and watch the forecast.',
  },
  {
    topic: 'garlic',
    exchanges: [
      [
        'When do I plant garlic?',
        'Plant garlic cloves in fall, 4-6 weeks before the ground freezes. In zone {zone} that is usually October to November. Plant pointy end up, 2 inches deep and 6 inches apart, then mulch.',
      ],
      [
        'How do I know when garlic is ready to harvest?',
        'Harvest when the lower third of the leaves have browned, usually early summer. Dig, do not pull, and cure the bulbs in a dry shady spot for 2-3 weeks.',
      ],
    ],
    summary: 'Garlic planting and harvest timing.',
    keyOutcomes: 'Planting window in fall and harvest signs.',
    nextSteps: 'Buy seed garlic and prepare a bed for fall planting.',
  },
  {
    topic: 'berries',
    exchanges: [
      [
        'How do I grow blueberries?',
        'Blueberries need acidic soil (pH 4.5-5.5), full sun and steady moisture. Plant two varieties for better pollination, mulch with pine needles, and feed with an azalea fertilizer.',
      ],
      [
        'My strawberries are small this year',
        'Strawberry plants are most productive in their second and third years. Renew the bed by thinning old plants after harvest, feed with compost, and water evenly while fruit forms.',
      ],
    ],
    summary: 'Berry growing: soil needs and keeping plants productive.',
    keyOutcomes: 'Soil acidity and renewal plan for berries.',
    nextSteps: 'Test soil pH before planting blueberries.',
  },
  {
    topic: 'seed starting',
    exchanges: [
      [
        'My seedlings are tall and floppy',
        'Leggy seedlings need more light. Put grow lights 2-3 inches above them for 14-16 hours a day, and run a fan gently for sturdier stems. Repot deeper to bury some of the stem.',
      ],
      [
        'How do I harden off seedlings?',
        'Over 7-10 days, set them outside in shade for an hour, then add time and sun each day. Bring them in on cold nights. After that they are ready to transplant.',
      ],
    ],
    summary: 'Seed starting: light for seedlings and hardening off.',
    keyOutcomes: 'Grow lights lowered; hardening-off schedule set.',
    nextSteps: 'Start hardening off a week before transplanting.',
  },
  {
    topic: 'houseplants',
    exchanges: [
      [
        'My fiddle leaf fig is dropping leaves',
        'Fiddle leaf figs drop leaves after moves, drafts or overwatering. Keep it in bright indirect light, water only when the top 2 inches are dry, and keep it away from heaters and doors.',
      ],
      [
        'What houseplants are hard to kill?',
        'Pothos, snake plant, ZZ plant, spider plant and peace lily forgive missed waterings and lower light. Water when the soil is dry and do not let them sit in water.',
      ],
    ],
    summary: 'Houseplant care and low-maintenance choices.',
    keyOutcomes: 'Watering adjusted to the plant and its light.',
    nextSteps: 'Move the plant away from drafts and water less often.',
  },
];

/** Questions sent with a photo, and what the vision model made of the picture. */
export const SEED_IMAGE_EXCHANGES: ReadonlyArray<
  readonly [question: string, analysis: string, answer: string]
> = [
  [
    'What is wrong with this leaf?',
    'Tomato leaf with concentric brown rings and yellowing margins, consistent with early blight (Alternaria).',
    'From your photo this looks like early blight. Remove the spotted leaves, mulch under the plant, and water at the base. A copper spray slows its spread.',
  ],
  [
    'What plant is this?',
    'Broad-leaved weed with a basal rosette and deeply toothed leaves: common dandelion (Taraxacum officinale).',
    'That is a dandelion. Dig it out with the whole taproot, ideally after rain, or leave a few: early bees love the flowers.',
  ],
  [
    'Are these bugs bad?',
    'Cluster of small pear-shaped green insects on a stem tip: aphids, with a ladybug larva nearby.',
    'Those are aphids, and the alligator-like bug next to them is a ladybug larva eating them. Hold off on sprays and let it work.',
  ],
  [
    'Is this squash ready to pick?',
    'Butternut squash with uniform tan skin and a dry, corky stem: mature.',
    'Yes: the tan skin and dry stem say it is ripe. Cut it with 2 inches of stem and cure it in a warm spot for 10 days before storing.',
  ],
];

export const SEED_IMAGE_FAILURES: readonly string[] = [
  'Media download failed: 404 Not Found',
  'Unsupported media type: image/heic',
  'Vision model timed out after 30000 ms',
];

/** Twilio's error codes for outbound messages that did not arrive. */
export const SEED_TWILIO_ERRORS: ReadonlyArray<
  readonly [status: 'failed' | 'undelivered', code: string, text: string]
> = [
  ['undelivered', '30003', 'Unreachable destination handset'],
  ['undelivered', '30005', 'Unknown destination handset'],
  ['undelivered', '30006', 'Landline or unreachable carrier'],
  ['undelivered', '30007', 'Message filtered by carrier'],
  ['failed', '30008', 'Unknown error'],
  ['failed', '21610', 'Attempt to send to unsubscribed recipient'],
  ['failed', '30004', 'Message blocked'],
];

export const SEED_LLM_ERRORS: readonly string[] = [
  '429 Rate limit reached for gpt-4o-mini in organization on requests per min',
  'Request timed out after 20000 ms',
  '500 The server had an error while processing your request',
  '503 The engine is currently overloaded, please try again later',
];

/** The AI models of a fresh install, with OpenAI's list prices (USD per million tokens). */
export const SEED_AI_MODELS = [
  {
    name: 'gpt-4o-mini',
    displayName: 'GPT-4o mini',
    input: 0.15,
    output: 0.6,
    maxTokens: 16384,
    active: true,
    live: true,
    fallback: false,
  },
  {
    name: 'gpt-4o',
    displayName: 'GPT-4o',
    input: 2.5,
    output: 10,
    maxTokens: 16384,
    active: true,
    live: false,
    fallback: true,
  },
  {
    name: 'gpt-4.1-mini',
    displayName: 'GPT-4.1 mini',
    input: 0.4,
    output: 1.6,
    maxTokens: 32768,
    active: true,
    live: false,
    fallback: false,
  },
  {
    name: 'gpt-4.1',
    displayName: 'GPT-4.1',
    input: 2,
    output: 8,
    maxTokens: 32768,
    active: false,
    live: false,
    fallback: false,
  },
  {
    name: 'gpt-3.5-turbo',
    displayName: 'GPT-3.5 Turbo',
    input: 0.5,
    output: 1.5,
    maxTokens: 4096,
    active: false,
    live: false,
    fallback: false,
  },
] as const;

export const SEED_TEST_USERS: ReadonlyArray<readonly [phone: string, name: string, zipIndex: number]> = [
  ['+15550100001', 'Beginner on a balcony', 2],
  ['+15550100002', 'Market gardener', 22],
  ['+15550100003', 'Frustrated first-timer', 30],
  ['+15550100004', 'Desert xeriscaper', 11],
  ['+15550100005', 'Cold-climate grower', 45],
  ['+15550100006', 'Spanish speaker', 69],
];

export const SEED_FIRST_NAMES: readonly string[] = [
  'maria',
  'james',
  'linda',
  'robert',
  'patricia',
  'michael',
  'jennifer',
  'david',
  'elizabeth',
  'william',
  'susan',
  'carlos',
  'jessica',
  'daniel',
  'sarah',
  'thomas',
  'karen',
  'kevin',
  'nancy',
  'priya',
  'lisa',
  'mark',
  'emily',
  'jose',
  'ashley',
  'andrew',
  'kim',
  'aisha',
  'nguyen',
  'olivia',
];

export const SEED_LAST_NAMES: readonly string[] = [
  'smith',
  'johnson',
  'garcia',
  'brown',
  'miller',
  'davis',
  'rodriguez',
  'martinez',
  'lee',
  'walker',
  'hall',
  'young',
  'allen',
  'king',
  'wright',
  'lopez',
  'hill',
  'green',
  'adams',
  'baker',
  'nelson',
  'carter',
  'mitchell',
  'perez',
  'roberts',
  'turner',
  'phillips',
  'campbell',
  'parker',
  'patel',
];
