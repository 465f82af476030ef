// Reference data the demo seed draws from: ZIP codes with the area codes of their city, the
// questions people text and the answers Sprout gives, and the texts of summaries and failures.
// Cities, states, regions and zones are not written here: the seed asks libs/gardening, the same
// lookups the product answers with, so a seeded gardener's zone is the one Sprout would give.
import { IMAGE_CONTENT_TYPES } from '@sprout/contracts';
import { ContentTypeNotAllowedError, HttpStatusError } from '@sprout/platform';

export interface SeedZip {
  zip: string;
  /** Area codes of the ZIP's city (its state's), for the seeded phone numbers. */
  areaCodes: readonly string[];
}

const z = (zip: string, ...areaCodes: string[]): SeedZip => ({ zip, areaCodes });

/**
 * ZIPs across the contiguous states (the shipped zone table has none for Alaska and Hawaii), each
 * with its city's area codes. An area code belongs to one ZIP only:
 * every area code gives the seed numbers of its own (see SEED_PHONE_LINES).
 */
export const SEED_ZIPS: readonly SeedZip[] = [
  // Pacific Northwest
  z('97201', '503', '971'),
  z('97401', '541', '458'),
  z('98101', '206'),
  z('98402', '253'),
  z('98004', '425'),
  z('98501', '360', '564'),
  z('99201', '509'),
  // California
  z('94612', '510', '341'),
  z('94102', '415', '628'),
  z('95113', '408', '669'),
  z('95814', '916', '279'),
  z('90012', '213', '323'),
  z('90401', '310', '424'),
  z('91502', '818', '747'),
  z('90802', '562'),
  z('91101', '626'),
  z('92805', '714', '657'),
  z('92618', '949'),
  z('92501', '951'),
  z('92401', '909', '840'),
  z('92101', '619', '858'),
  z('93721', '559'),
  z('95060', '831'),
  z('93301', '661'),
  z('95404', '707'),
  z('95202', '209'),
  z('93001', '805', '820'),
  z('96001', '530'),
  z('92262', '760', '442'),
  // Southwest
  z('85004', '602'),
  z('85201', '480'),
  z('85301', '623'),
  z('85701', '520'),
  z('86001', '928'),
  z('87102', '505'),
  z('88001', '575'),
  z('89101', '702', '725'),
  z('89501', '775'),
  // Mountain West
  z('80202', '303', '720'),
  z('80903', '719'),
  z('80521', '970'),
  z('84101', '801', '385'),
  z('84770', '435'),
  z('83702', '208', '986'),
  z('59801', '406'),
  z('82001', '307'),
  // South Central
  z('78701', '512', '737'),
  z('75201', '214', '469', '972'),
  z('76102', '817', '682'),
  z('77002', '713', '281', '832', '346'),
  z('78205', '210'),
  z('79901', '915'),
  z('79401', '806'),
  z('78401', '361'),
  z('75701', '903', '430'),
  z('76701', '254'),
  z('77701', '409'),
  z('78501', '956'),
  z('79701', '432'),
  z('79601', '325'),
  z('77840', '979'),
  z('76201', '940'),
  z('73102', '405'),
  z('74103', '918', '539'),
  z('73501', '580'),
  z('72201', '501'),
  z('72701', '479'),
  z('72401', '870'),
  z('70112', '504'),
  z('70801', '225'),
  z('71101', '318'),
  z('70501', '337'),
  z('70401', '985'),
  // Midwest
  z('60601', '312', '872'),
  z('60614', '773'),
  z('60201', '847', '224'),
  z('60540', '630', '331'),
  z('60432', '815', '779'),
  z('60302', '708'),
  z('61820', '217', '447'),
  z('61602', '309'),
  z('62220', '618', '730'),
  z('46204', '317', '463'),
  z('46802', '260'),
  z('47708', '812', '930'),
  z('46601', '574'),
  z('46402', '219'),
  z('47901', '765'),
  z('43215', '614', '380'),
  z('44113', '216'),
  z('44308', '330', '234'),
  z('43604', '419', '567'),
  z('45202', '513'),
  z('45402', '937', '326'),
  z('44035', '440'),
  z('45701', '740', '220'),
  z('48226', '313'),
  z('48104', '734'),
  z('48084', '248', '947'),
  z('48089', '586'),
  z('48933', '517'),
  z('48502', '810'),
  z('49503', '616'),
  z('49007', '269'),
  z('48607', '989'),
  z('49684', '231'),
  z('49855', '906'),
  z('53703', '608'),
  z('53202', '414'),
  z('54301', '920'),
  z('53186', '262'),
  z('54701', '715', '534'),
  z('55401', '612'),
  z('55101', '651'),
  z('55420', '952'),
  z('55303', '763'),
  z('55802', '218'),
  z('55901', '507'),
  z('50309', '515'),
  z('52401', '319'),
  z('52801', '563'),
  z('51101', '712'),
  z('50401', '641'),
  z('63101', '314', '557'),
  z('64106', '816'),
  z('65806', '417'),
  z('65201', '573'),
  z('63301', '636'),
  z('66603', '785'),
  z('67202', '316'),
  z('66212', '913'),
  z('67801', '620'),
  z('68102', '402', '531'),
  z('69101', '308'),
  z('57104', '605'),
  z('58102', '701'),
  // Northeast
  z('04101', '207'),
  z('03301', '603'),
  z('05401', '802'),
  z('02108', '617', '857'),
  z('01608', '508', '774'),
  z('01103', '413'),
  z('01852', '978', '351'),
  z('01901', '781', '339'),
  z('02903', '401'),
  z('06103', '860', '959'),
  z('06510', '203', '475'),
  z('10001', '212', '646', '332', '917'),
  z('11201', '718', '347', '929'),
  z('12601', '845'),
  z('14202', '716'),
  z('14604', '585'),
  z('13202', '315', '680'),
  z('12207', '518'),
  z('13901', '607'),
  z('11550', '516'),
  z('11788', '631', '934'),
  z('10601', '914'),
  z('07102', '973', '862'),
  z('07302', '201', '551'),
  z('08608', '609', '640'),
  z('08901', '732', '848'),
  z('08102', '856'),
  z('08822', '908'),
  z('19103', '215', '267', '445'),
  z('15222', '412', '878'),
  z('17101', '717', '223'),
  z('18101', '610', '484'),
  z('18503', '570', '272'),
  z('16501', '814'),
  z('15601', '724'),
  // Mid-Atlantic
  z('19801', '302'),
  z('21201', '410', '443', '667'),
  z('20850', '301', '240'),
  z('20001', '202'),
  z('23219', '804'),
  z('22201', '703', '571'),
  z('23510', '757'),
  z('24011', '540'),
  z('24504', '434'),
  z('25301', '304', '681'),
  // Southeast
  z('27601', '919', '984'),
  z('28202', '704', '980'),
  z('27401', '336'),
  z('28801', '828'),
  z('28401', '910'),
  z('27858', '252'),
  z('29401', '843', '854'),
  z('29201', '803'),
  z('29601', '864'),
  z('30303', '404', '678', '470'),
  z('30060', '770'),
  z('31401', '912'),
  z('31201', '478'),
  z('30901', '706', '762'),
  z('31701', '229'),
  z('32801', '407', '689'),
  z('33130', '305', '786'),
  z('32301', '850'),
  z('33602', '813'),
  z('33701', '727'),
  z('32202', '904'),
  z('33301', '954', '754'),
  z('33401', '561'),
  z('33901', '239'),
  z('32601', '352'),
  z('34236', '941'),
  z('32114', '386'),
  z('32901', '321'),
  z('33801', '863'),
  z('35203', '205'),
  z('36602', '251'),
  z('36104', '334'),
  z('35801', '256', '938'),
  z('39201', '601', '769'),
  z('39501', '228'),
  z('38804', '662'),
  z('37203', '615', '629'),
  z('37902', '865'),
  z('38103', '901'),
  z('37402', '423'),
  z('38301', '731'),
  z('37040', '931'),
  z('40202', '502'),
  z('40507', '859'),
  z('42101', '270', '364'),
  z('41501', '606'),
];

/**
 * The seed's phone numbers are fictional: NXX-555-0100 to NXX-555-0199 are reserved for fiction
 * in every area code, so no seeded number can reach a person. Lines 0100 to 0129 are never seeded
 * (texting the sandbox from one, as `npm run sms` does from +1 503 555-0123, starts a new
 * gardener); regular demo users take 0130 to 0198, the simulator's test users 0199.
 */
export const SEED_PHONE_LINES = { first: 130, last: 198, testUsers: 199 } as const;

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
        'Something is eating holes in my kale leaves.',
        'Small round holes are usually cabbage worms or flea beetles. Check leaf undersides for green caterpillars and pick them off, or spray Bt, which only affects caterpillars. Row covers keep moths off.',
      ],
      [
        'How do I get rid of aphids without chemicals?',
        'Knock aphids off with a strong spray of water every few days, and let ladybugs and lacewings do the rest. Insecticidal soap works on heavy clusters; spray in the evening.',
      ],
      [
        'Slugs are destroying my seedlings.',
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
        'There is white powder on my squash leaves.',
        'That is powdery mildew. Remove the worst leaves, improve airflow, and spray a mix of 1 part milk to 2 parts water weekly. Water the soil, not the leaves.',
      ],
      [
        'My cucumber plants are wilting even though I water them.',
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
        'My compost pile smells bad.',
        'A sour smell means too many greens or too much water. Mix in dry leaves or shredded cardboard and turn it to add air. A healthy pile smells earthy.',
      ],
      [
        'Can I put coffee grounds in my compost?',
        'Yes: coffee grounds count as greens and worms love them. Mix them in with browns like dry leaves, and paper filters can go in too. Keep them under a quarter of the pile.',
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
        'My peach tree has curled red leaves.',
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
      [
        'How short should I mow my grass?',
        'Mow cool-season grass at 3-4 inches and warm-season grass at 2-3 inches, and never cut more than a third of the blade at once. Taller grass shades out weeds and needs less water.',
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
      [
        'What should I fill a new raised bed with?',
        'Use about 60% screened topsoil and 40% compost, mixed well. Skip pure bagged potting mix: it shrinks and dries out fast. Top up with an inch of compost each spring.',
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
      [
        'Why are the leaves on my potted tomato turning yellow?',
        'In pots, yellow lower leaves usually mean the plant has used up the nutrients. Feed every 2 weeks with a liquid vegetable fertilizer and check that water drains freely from the bottom.',
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
      [
        'Can I use a bedsheet to cover plants from frost?',
        'Yes, sheets and old blankets work well. Drape them to the ground over stakes so they do not crush the plants, anchor the edges, and take them off in the morning once it warms up.',
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
      [
        'Should I cut the flower stalks off my garlic?',
        'Yes: snap off the curly scapes once they loop. The plant then puts its energy into the bulb, and the scapes are great in stir-fries and pesto.',
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
        'My strawberries are small this year.',
        'Strawberry plants are most productive in their second and third years. Renew the bed by thinning old plants after harvest, feed with compost, and water evenly while fruit forms.',
      ],
      [
        'When should I prune my raspberries?',
        'Cut summer-bearing canes that fruited this year to the ground right after harvest, and keep 4-5 strong new canes per foot of row. Fall-bearing types can be mowed to the ground in late winter.',
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
        'My seedlings are tall and floppy.',
        'Leggy seedlings need more light. Put grow lights 2-3 inches above them for 14-16 hours a day, and run a fan gently for sturdier stems. Repot deeper to bury some of the stem.',
      ],
      [
        'How do I harden off seedlings?',
        'Over 7-10 days, set them outside in shade for an hour, then add time and sun each day. Bring them in on cold nights. After that they are ready to transplant.',
      ],
      [
        'Why did my seeds not come up?',
        'Seeds fail when the soil is too cold, too wet or too dry, or when they are planted too deep. Sow at twice the width of the seed, keep the mix evenly moist, and use a heat mat for warm crops like peppers.',
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
        'My fiddle leaf fig is dropping leaves.',
        'Fiddle leaf figs drop leaves after moves, drafts or overwatering. Keep it in bright indirect light, water only when the top 2 inches are dry, and keep it away from heaters and doors.',
      ],
      [
        'What houseplants are hard to kill?',
        'Pothos, snake plant, ZZ plant, spider plant and peace lily forgive missed waterings and lower light. Water when the soil is dry and do not let them sit in water.',
      ],
      [
        'How often should I repot my houseplants?',
        'Most houseplants need repotting every 1-2 years, when roots circle the pot or poke out of the drainage holes. Go up only 1-2 inches in pot size, in spring.',
      ],
    ],
    summary: 'Houseplant care and low-maintenance choices.',
    keyOutcomes: 'Watering adjusted to the plant and its light.',
    nextSteps: 'Move the plant away from drafts and water less often.',
  },
];

/**
 * How gardeners dress up the same question. A question's text is its core question with one
 * opener, one aside and one tail: every combination is a different text, and the seed gives each
 * use of a core question the next unused combination, so no two texts are alike (up to
 * QUESTION_VARIANTS uses of one core question).
 */
export const SEED_QUESTION_OPENERS: readonly string[] = [
  '',
  'Hi! ',
  'Hello! ',
  'Hey there! ',
  'Quick question: ',
  'Question: ',
  'Hi Sprout! ',
  'Hey Sprout. ',
  'Good morning! ',
  'Good evening. ',
  'Another one: ',
  'Hi again! ',
  'Sorry to bother you. ',
  'Hope you can help. ',
];

export const SEED_QUESTION_ASIDES: readonly string[] = [
  '',
  ' Just noticed this today.',
  ' Been wondering for a while.',
  ' We had a lot of rain this week.',
  ' It has been hot lately.',
  ' It has been cool and cloudy.',
  ' My neighbor asked me too.',
  ' Sorry if this is basic.',
  ' Trying to plan ahead.',
  ' Want to get it right this year.',
  ' Same thing happened last year.',
  ' Checking before the weekend.',
  ' My kids want to help.',
  ' Trying to keep costs down.',
  ' No rush.',
  ' Asking before I buy anything.',
  ' First time asking.',
  ' Saw this after work.',
  ' Want to do this organically.',
  ' Getting ready for the season.',
];

export const SEED_QUESTION_TAILS: readonly string[] = [
  '',
  ' Thanks!',
  ' Thank you!',
  ' Thanks in advance.',
  ' Any tips?',
  ' Appreciate it!',
  ' Thx',
  ' Cheers!',
  ' :)',
  ' Thanks so much.',
  ' TIA',
  ' Thanks a bunch.',
  ' Many thanks.',
  ' Grateful for any advice.',
];

export const QUESTION_VARIANTS =
  SEED_QUESTION_OPENERS.length * SEED_QUESTION_ASIDES.length * SEED_QUESTION_TAILS.length;

/** How a model answer starts and ends (template answers, the offline advisor's, have neither). */
export const SEED_ANSWER_OPENERS: readonly string[] = [
  '',
  'Good question! ',
  'Happy to help. ',
  'Great question. ',
  'Sure! ',
  'Glad you asked. ',
  'Thanks for asking! ',
  'Short answer: ',
  'Here is what I would do. ',
  'Good timing. ',
];

export const SEED_ANSWER_CLOSERS: readonly string[] = [
  '',
  ' Good luck!',
  ' Happy gardening!',
  ' Let me know how it goes.',
  ' Feel free to text a follow-up.',
  ' Hope that helps!',
  ' Keep me posted.',
  ' You have got this!',
];

/** Questions sent with a photo, what the vision model made of the picture, and the answer. */
export const SEED_IMAGE_EXCHANGES: ReadonlyArray<
  readonly [question: string, analysis: string, answer: string]
> = [
  [
    'What is wrong with this leaf?',
    'Tomato leaf with concentric brown rings and yellowing margins, consistent with early blight (Alternaria). Remove affected leaves and keep foliage dry.',
    'From your photo this looks like early blight. Remove the spotted leaves, mulch under the plant, and water at the base. A copper spray slows its spread.',
  ],
  [
    'What plant is this?',
    'Broad-leaved weed with a basal rosette and deeply toothed leaves: common dandelion (Taraxacum officinale). Healthy, no pests visible.',
    'That is a dandelion. Dig it out with the whole taproot, ideally after rain, or leave a few: early bees love the flowers.',
  ],
  [
    'Are these bugs bad?',
    'Cluster of small pear-shaped green insects on a stem tip: aphids, with a ladybug larva nearby feeding on them.',
    'Those are aphids, and the alligator-like bug next to them is a ladybug larva eating them. Hold off on sprays and let it work.',
  ],
  [
    'Is this squash ready to pick?',
    'Butternut squash with uniform tan skin and a dry, corky stem: mature and ready to harvest.',
    'Yes: the tan skin and dry stem say it is ripe. Cut it with 2 inches of stem and cure it in a warm spot for 10 days before storing.',
  ],
  [
    'Why are these leaves curling?',
    'Pepper plant with upward-curling, slightly puckered leaves and no visible insects on the upper surface; pattern suggests heat or water stress, possibly mites under the leaves.',
    'Curling like that is usually heat or uneven watering. Water deeply in the morning and check under the leaves for tiny mites; a strong spray of water knocks them off.',
  ],
  [
    'Is this mold on my soil bad?',
    'Potted seedling tray with white fuzzy growth on the soil surface: saprophytic mold from damp conditions, not harmful to the seedlings themselves.',
    'That white fuzz is a harmless soil mold from too much moisture. Let the top dry out between waterings, add a fan for airflow, and scrape it off if it bothers you.',
  ],
];

/** What the answer says when the photo could not be read (the model answers the text alone). */
export const SEED_IMAGE_UNREAD_ANSWER =
  'I could not see a photo with your message. Could you describe what you see, or send the picture again as a JPEG?';

/**
 * The vision call as image-processor makes it with the live model: the photo costs a base of 2,833
 * input tokens plus 5,667 per 512-pixel tile for gpt-4o-mini (2 to 6 tiles for a phone photo),
 * and the answer is at most 500 tokens.
 */
export const SEED_IMAGE_TOKENS = { base: 2833, perTile: 5667, prompt: 140 } as const;

/** Twilio's error codes for outbound messages that did not arrive (21610, an opt-out, is not random). */
/** How an analysis fails, as image-processor records it: a fetch refused (no model call) or a failed vision call. */
export interface SeedImageFailure {
  stage: 'fetch' | 'model';
  /** The media's content type as Twilio reported it. */
  contentType: string;
  /** The error image-processor keeps (the fetch error, or the model call's). */
  error: string;
  minMs: number;
  maxMs: number;
}

export const SEED_IMAGE_FAILURES: readonly SeedImageFailure[] = [
  // Twilio deletes media after a while; the photo is gone.
  {
    stage: 'fetch',
    contentType: 'image/jpeg',
    error: new HttpStatusError('', 404).message,
    minMs: 150,
    maxMs: 900,
  },
  {
    stage: 'fetch',
    contentType: 'image/heic',
    error: new ContentTypeNotAllowedError('', 'image/heic', IMAGE_CONTENT_TYPES).message,
    minMs: 300,
    maxMs: 1500,
  },
  {
    stage: 'model',
    contentType: 'image/jpeg',
    error: 'OpenAI returned an empty answer (the model refused)',
    minMs: 1500,
    maxMs: 4000,
  },
  {
    stage: 'model',
    contentType: 'image/jpeg',
    error:
      "400 You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].",
    minMs: 200,
    maxMs: 700,
  },
];

export const SEED_TWILIO_ERRORS: ReadonlyArray<
  readonly [status: 'failed' | 'undelivered', code: string, text: string]
> = [
  ['undelivered', '30003', 'Unreachable destination handset'],
  ['undelivered', '30005', 'Unknown destination handset'],
  ['undelivered', '30006', 'Landline or unreachable carrier'],
  ['undelivered', '30007', 'Message filtered by carrier'],
  ['failed', '30008', 'Unknown error'],
  ['failed', '30004', 'Message blocked'],
];

/**
 * Failed model calls as ai-responder records them ("kind: message", the openai SDK's message),
 * with how long the failed call took. {model} is the model that failed.
 */
export const SEED_LLM_ERRORS: ReadonlyArray<
  readonly [kind: string, message: string, minMs: number, maxMs: number]
> = [
  [
    'rate_limit',
    '429 Rate limit reached for {model} in organization org-sprout on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms.',
    120,
    600,
  ],
  ['server', '500 The server had an error while processing your request. Sorry about that!', 400, 2500],
  ['server', '503 The engine is currently overloaded, please try again later.', 200, 1200],
  // ai-responder's default LLM_TIMEOUT_MS.
  ['timeout', 'OpenAI request timed out', 15_000, 15_060],
  ['network', 'OpenAI unreachable: Connection error.', 20, 400],
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

/** The simulator's test users: name and the ZIP they garden in (their number is line 0199 of its first area code). */
export const SEED_TEST_USERS: ReadonlyArray<readonly [name: string, zip: string]> = [
  ['Beginner on a balcony', '98101'],
  ['Market gardener', '78701'],
  ['Frustrated first-timer', '60601'],
  ['Desert xeriscaper', '85004'],
  ['Cold-climate grower', '58102'],
  ['Spanish speaker', '33130'],
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
