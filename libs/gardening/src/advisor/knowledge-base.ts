import type { Topic } from '../analysis/topics';
import { stateName } from '../places/states';
import { addDays, formatDate } from '../text/dates';
import { byLevel, bySeason, compose, dateRange, zipHint, type AdviceContext } from './context';

/** One question the offline advisor knows how to answer. */
export interface AdviceEntry {
  id: string;
  topic: Topic;
  /** Weighted patterns over the lower-cased question; the score is the sum of those that match. */
  match: ReadonlyArray<readonly [RegExp, number]>;
  /** Patterns that must all match. */
  requires?: readonly RegExp[];
  /** Patterns that rule the entry out. */
  excludes?: readonly RegExp[];
  answer(ctx: AdviceContext): string;
}

/** Minimum score for an entry to answer. */
export const MATCH_THRESHOLD = 3;
const MAX = 320;

const lawnType = (ctx: AdviceContext): 'cool' | 'warm' | 'transition' | null =>
  ctx.zoneNumber === null ? null : ctx.zoneNumber >= 8 ? 'warm' : ctx.zoneNumber <= 6 ? 'cool' : 'transition';

/** The date range `weeks` around this year's (or next year's, if past) frost date. */
function upcomingRange(
  ctx: AdviceContext,
  which: 'last' | 'first',
  weeks: readonly [number, number],
): string | null {
  const base = which === 'last' ? ctx.lastFrost : ctx.firstFrost;
  if (!base) return null;
  let from = addDays(base, weeks[0] * 7);
  let to = addDays(base, weeks[1] * 7);
  if (ctx.today > to) {
    from = new Date(Date.UTC(from.getUTCFullYear() + 1, from.getUTCMonth(), from.getUTCDate()));
    to = new Date(Date.UTC(to.getUTCFullYear() + 1, to.getUTCMonth(), to.getUTCDate()));
  }
  return dateRange(from, to);
}

const TOMATO = /\b(?:tomato(?:e?s)?|tomatos|maters?)\b/;
const HOUSEPLANT =
  /\b(?:house\s*plants?|indoor\s+plants?|pothos|monstera|philodendron|peace\s+lily|snake\s+plant|fiddle\s*leaf|ficus|orchid|calathea|zz\s+plant|spider\s+plant|hoya|rubber\s+plant|dracaena)\b/;

export const KNOWLEDGE_BASE: readonly AdviceEntry[] = [
  // ------------------------------------------------------------------ watering
  {
    id: 'watering-basics',
    topic: 'watering',
    match: [
      [/\bwater(?:ing)?\b/, 2],
      [/\bhow\s+(?:often|much|many\s+times)\b/, 2],
      [/\b(?:vegetable|veggie|garden|plants|beds?|flowers?|yard)\b/, 1],
      [/\bschedule\b/, 1],
    ],
    requires: [/\bwater/],
    excludes: [/\b(?:pots?|containers?|succulents?|cact|sod|lawn|grass|houseplants?|seedlings?)\b/],
    answer: (ctx) =>
      compose(
        MAX,
        'Water deeply 1-2 times a week, about 1 inch in total (rain counts), rather than a little every day: deep watering grows deep roots. Push a finger 2 inches into the soil and water when it is dry there. Morning is best.',
        bySeason(ctx, { summer: 'In summer heat, check every day or two, and mulch to hold moisture.' }),
        'Seedlings, new plants and pots need water more often.',
      ),
  },
  {
    id: 'watering-time-of-day',
    topic: 'watering',
    match: [
      [/\bwater\w*\b/, 1],
      [/\b(?:morning|night|evening|time\s+of\s+day|midday|noon|afternoon)\b/, 3],
      [/\b(?:better|best|when)\b/, 1],
    ],
    requires: [/\bwater/, /\b(?:morning|night|evening|time\s+of\s+day|midday|noon|afternoon)\b/],
    answer: () =>
      'Early morning is best: less water is lost to evaporation and leaves dry quickly, which limits disease. Evening is second best if you water the soil, not the leaves. Midday watering mostly just wastes water; it does not scorch leaves.',
  },
  {
    id: 'watering-containers',
    topic: 'containers',
    match: [
      [/\bwater\w*\b/, 2],
      [/\b(?:pots?|potted|containers?|planters?|grow\s+bags?|buckets?|hanging\s+baskets?)\b/, 3],
    ],
    requires: [/\bwater/, /\b(?:pots?|potted|containers?|planters?|grow\s+bags?|buckets?|baskets?)\b/],
    excludes: [/\bsucculent|cact/, HOUSEPLANT],
    answer: (ctx) =>
      compose(
        MAX,
        `Pots dry out fast. Check daily and water when the top inch is dry, until water runs out the bottom.${TOMATO.test(ctx.question) ? ' A tomato in a 5-gallon pot often needs water every day in summer, sometimes twice.' : ''}`,
        'Bigger pots, a layer of mulch on top and grouping pots together all cut watering. Never let pots sit in a saucer of water.',
      ),
  },
  {
    id: 'watering-new-sod',
    topic: 'lawn',
    match: [
      [/\b(?:new\s+)?sod\b/, 4],
      [/\bwater\w*/, 1],
      [/\bnew\s+(?:lawn|grass)\b/, 2],
    ],
    answer: () =>
      'New sod: soak it right after laying until the soil below is wet, then water daily (twice in heat) for 2 weeks to keep the top inch moist. In week 3 water every other day, then switch to deep watering 1-2 times a week. Wait to mow until it will not lift when tugged (2-3 weeks).',
  },
  {
    id: 'lawn-watering',
    topic: 'lawn',
    match: [
      [/\bwater\w*/, 2],
      [/\b(?:lawn|grass|turf|yard)\b/, 3],
      [/\bhow\s+(?:often|much|long)\b/, 1],
    ],
    requires: [/\bwater/, /\b(?:lawn|grass|turf|yard)\b/],
    excludes: [/\bsod\b/, /\bseed/],
    answer: () =>
      'Lawns need about 1 inch of water a week, rain included. Water deeply 1-2 times a week in early morning rather than a daily sprinkle; set a tuna can on the lawn and stop when it holds an inch. Letting cool-season grass go dormant and brown in drought is OK; it greens up again.',
  },
  {
    id: 'overwatering-rot',
    topic: 'houseplants',
    excludes: [TOMATO, /\b(?:zucchini|squash|cucumbers?|melons?|peppers?|fruit)\b/],
    requires: [
      /\b(?:mushy|soft|squishy|rotting|root\s+rot|rotten|soggy|overwater\w*)\b/,
      /\b(?:snake\s+plant|sansevieria|succulents?|jade|aloe|cact\w*|zz\s+plant|houseplants?|pots?|potted|roots?|base|stems?)\b/,
    ],
    match: [
      [/\b(?:mushy|soft|squishy|rotting|root\s+rot|rotten|soggy|overwater\w*)\b/, 3],
      [/\b(?:snake\s+plant|sansevieria|succulents?|jade|aloe|cact\w*|zz\s+plant|houseplants?)\b/, 2],
      [/\b(?:base|stem|roots?|leaves)\b/, 1],
    ],
    answer: () =>
      'Mushy leaves or stems at the base mean root rot from too much water. Unpot it, cut away soft roots and leaves, let it dry a day, then repot in fresh gritty (cactus) mix in a pot with a drain hole. From now on water only when the soil is completely dry, about every 2-4 weeks.',
  },
  {
    id: 'succulent-care',
    topic: 'succulents',
    excludes: [/\b(?:christmas|thanksgiving|easter|holiday)\s+cact/],
    match: [
      [/\b(?:succulents?|cact(?:us|i)|echeveria|jade|aloe|haworthia|sedum)\b/, 3],
      [/\b(?:water\w*|how\s+often|care|grow)\b/, 2],
    ],
    requires: [/\b(?:succulents?|cact(?:us|i)|echeveria|jade|aloe|haworthia|sedum)\b/],
    answer: () =>
      'Use the soak-and-dry method: water thoroughly until it drains, then wait until the soil is completely dry (about every 1-2 weeks in summer, 3-4 weeks in winter). Use a gritty cactus mix, a pot with a hole and bright light. Wrinkled leaves mean thirsty; mushy or see-through leaves mean too wet.',
  },
  // ------------------------------------------------------------------ tomatoes and crops
  {
    id: 'tomato-yellow-leaves',
    topic: 'tomatoes',
    match: [
      [TOMATO, 2],
      [/\byellow\w*\b/, 3],
      [/\b(?:leaves|leaf|bottom|lower)\b/, 1],
    ],
    requires: [TOMATO, /\byellow/],
    answer: () =>
      'Yellow lower leaves on tomatoes are usually early blight (brown spots with rings) or a nitrogen shortage. Pick off the affected leaves, mulch so soil does not splash up, water at the base, and feed with a balanced fertilizer. If leaves yellow and wilt on one side of the plant, suspect fusarium wilt.',
  },
  {
    id: 'blossom-end-rot',
    topic: 'tomatoes',
    requires: [
      /\b(?:blossom\s+end|bottom|bottoms|end|ends)\b/,
      /\b(?:tomato\w*|peppers?|squash|zucchini|watermelons?|melons?|fruits?|eggplants?)\b/,
    ],
    match: [
      [/\bblossom\s+end\b/, 5],
      [/\b(?:black|brown|dark|rotten|rotting|rot|leathery|sunken)\b/, 2],
      [/\b(?:bottom|bottoms|end|ends|underside)\b/, 2],
      [/\b(?:tomato(?:e?s)?|peppers?|squash|zucchini|watermelons?)\b/, 1],
    ],
    answer: () =>
      'Black, leathery patches on the bottom of the fruit are blossom end rot: the fruit cannot get enough calcium, almost always because of uneven watering. Water deeply and evenly, mulch 2-3 inches and go easy on nitrogen. Remove spoiled fruit; the next fruits usually come out fine.',
  },
  {
    id: 'tomato-cracking',
    topic: 'tomatoes',
    match: [
      [TOMATO, 2],
      [/\b(?:crack\w*|split\w*|bursting|burst)\b/, 4],
    ],
    requires: [/\b(?:crack\w*|split\w*|burst\w*)\b/],
    answer: () =>
      'Cracking comes from uneven water: after a dry spell, heavy rain or watering makes the fruit swell faster than the skin can stretch. Water deeply on a regular schedule and mulch to keep moisture even. Pick at first blush before big rains; fresh cracked fruit is fine to eat soon.',
  },
  {
    id: 'tomato-leaf-curl',
    topic: 'tomatoes',
    match: [
      [TOMATO, 2],
      [/\bcurl\w*\b/, 4],
      [/\b(?:heat|hot|leaves)\b/, 1],
    ],
    requires: [TOMATO, /\bcurl/],
    answer: () =>
      'Leaves rolling upward on tomatoes is usually physiological leaf roll from heat, wind, heavy pruning or uneven water, and it does no harm. Keep watering evenly and mulch. Worry only if new leaves are twisted, mottled or stunted, which points to a virus or herbicide drift.',
  },
  {
    id: 'tomato-fertilizer',
    topic: 'fertilizer',
    match: [
      [TOMATO, 2],
      [/\b(?:fertili[sz]\w*|feed\w*|plant\s+food|nutrients?)\b/, 3],
    ],
    requires: [TOMATO, /\b(?:fertili[sz]|feed|plant\s+food|nutrient)/],
    answer: (ctx) =>
      compose(
        MAX,
        'Mix compost and a balanced organic fertilizer into the soil at planting. When the first fruits form, side-dress every 3-4 weeks with a tomato fertilizer lower in nitrogen (like 3-4-6 or 5-10-10). Too much nitrogen gives huge plants and few tomatoes.',
        byLevel(ctx, { advanced: 'Add calcium only if a soil test shows a shortage.' }),
      ),
  },
  {
    id: 'companion-tomatoes',
    topic: 'companion planting',
    requires: [
      /\bcompanion|\b(?:next\s+to|beside|alongside|near|plant\w*\s+with|grow\w*\s+with|together)\b[^.?!]*\b(?:tomato\w*|peppers?|beans?|corn|squash|cucumbers?|lettuce|carrots?|onions?|garlic|basil|cabbage|kale|potato\w*|herbs?|vegetables?|veggies)\b|\b(?:tomato\w*|peppers?|beans?|corn|squash|cucumbers?|lettuce|carrots?|onions?|garlic|basil|cabbage|kale|potato\w*|herbs?|vegetables?|veggies)\b[^.?!]*\b(?:next\s+to|beside|alongside|near|with|together)\b/,
    ],
    match: [
      [/\b(?:companion\w*|next\s+to|near|beside|alongside|with)\b/, 2],
      [/\bplant\w*\b/, 1],
      [TOMATO, 2],
      [/\bcompanion/, 2],
    ],
    answer: (ctx) =>
      TOMATO.test(ctx.question)
        ? 'Good tomato companions: basil, marigolds, nasturtiums, borage, onions, garlic, carrots and lettuce tucked underneath. Keep them away from potatoes (shared blight), corn (shared worms), fennel and cabbage-family crops. Spacing, sun and rotation still matter more than companions.'
        : 'Classic pairs: tomatoes with basil and marigolds; corn, beans and squash (the Three Sisters); carrots with onions; lettuce under taller crops for shade; nasturtiums as an aphid trap. Keep fennel apart from most crops, and beans away from onions and garlic.',
  },
  {
    id: 'crop-rotation',
    topic: 'crop rotation',
    match: [
      [/\bsame\s+(?:spot|place|bed|area|location)\b/, 4],
      [/\brotat\w*\b/, 4],
      [/\b(?:every|each|last)\s+year\b/, 1],
    ],
    answer: () =>
      'Better not: tomatoes in the same spot build up blight and wilt in the soil. Move the tomato family (tomatoes, peppers, eggplant, potatoes) to a new bed for 3 years if you can. If not, add fresh compost, mulch well, strip lower leaves, choose resistant varieties, or grow in big pots.',
  },
  {
    id: 'cucumbers-bitter',
    topic: 'cucumbers',
    match: [
      [/\b(?:cucumbers?|cukes?)\b/, 2],
      [/\bbitter\b/, 4],
    ],
    requires: [/\bbitter\b/],
    answer: () =>
      'Bitter cucumbers come from stress: uneven watering, heat or poor soil raise the bitter compound. Water deeply and evenly, mulch, feed lightly and pick them young. The bitterness sits near the stem end and in the skin, so peel and trim. Burpless varieties are less prone.',
  },
  {
    id: 'lettuce-bolting',
    topic: 'lettuce',
    match: [
      [/\b(?:lettuce|spinach|arugula|greens)\b/, 2],
      [/\b(?:bolt\w*|going\s+to\s+seed|flowering|tall\s+and\s+bitter|bitter)\b/, 4],
    ],
    requires: [/\b(?:lettuce|spinach|arugula|greens)\b/, /\b(?:bolt|seed|flower|bitter)/],
    answer: (ctx) =>
      compose(
        MAX,
        'Lettuce bolts (shoots up and turns bitter) when days get long and hot. Harvest it now and soak bitter leaves in cold water. Next time sow heat-tolerant types like Jericho or Muir in afternoon shade, and sow small batches every 2 weeks.',
        ctx.firstFrost
          ? `Sow again for fall around ${upcomingRange(ctx, 'first', [-8, -5]) ?? 'late summer'}.`
          : 'Sow again in late summer for fall.',
      ),
  },
  {
    id: 'cilantro-bolting',
    topic: 'herbs',
    match: [
      [/\b(?:cilantro|coriander)\b/, 3],
      [/\b(?:bolt\w*|flower\w*|seed|tall|dies?|dying)\b/, 2],
    ],
    requires: [/\b(?:cilantro|coriander)\b/],
    answer: () =>
      'Cilantro bolts in heat and long days; that is its nature. Sow a little every 2-3 weeks in spring and fall, give it afternoon shade, and try slow-bolt varieties like Calypso or Santo. Once it flowers, let it set seed: that is coriander, and it will often re-sow itself.',
  },
  {
    id: 'basil-problems',
    topic: 'herbs',
    match: [
      [/\bbasil\b/, 3],
      [/\b(?:black|brown|spots?|dying|died|killed|wilt\w*|yellow\w*|flowering|leggy)\b/, 2],
    ],
    requires: [
      /\bbasil\b/,
      /\b(?:black|brown|spots?|dying|died|kill\w*|wilt\w*|yellow\w*|flowering|leggy|wrong)\b/,
    ],
    answer: () =>
      'Basil hates cold and wet: leaves blacken below about 50F, and soggy soil rots roots. Grow it in full sun in warm weather, water when the top inch is dry, and pinch off flower spikes. Gray fuzz under yellowing leaves is downy mildew: remove those plants and choose resistant types.',
  },
  {
    id: 'squash-pollination',
    topic: 'pollination',
    match: [
      [/\b(?:zucchini|squash|pumpkins?|cucumbers?|melons?)\b/, 2],
      [/\b(?:flowers?|blossoms?|blooms?)\b/, 1],
      [
        /\b(?:fall(?:ing)?\s+off|drop\w*|no\s+fruit|not\s+(?:fruiting|producing)|rot\w*\s+(?:at|on)\s+the\s+(?:end|tip)|shrivel\w*|turn\s+yellow)\b/,
        3,
      ],
    ],
    requires: [
      /\b(?:zucchini|squash|pumpkins?|cucumbers?|melons?)\b/,
      /\b(?:fall|drop|no\s+fruit|not\s+(?:fruit|produc)|shrivel|rot|yellow)/,
    ],
    answer: () =>
      'Squash makes male flowers first, and they fall off: that is normal. If the female flowers (tiny fruit at the base) shrivel, they are not being pollinated. Hand-pollinate in the morning: dab pollen from a male flower onto the center of a female with a brush, and plant flowers nearby to bring bees.',
  },
  {
    id: 'peppers-tomatoes-no-fruit',
    topic: 'pollination',
    requires: [/\b(?:peppers?|tomato(?:e?s)?|eggplants?|beans?)\b/],
    match: [
      [/\b(?:peppers?|tomato(?:e?s)?|eggplants?|beans?)\b/, 2],
      [
        /\b(?:no\s+fruit|not\s+(?:fruiting|producing|setting)|flowers?\s+(?:fall|drop)\w*|blossoms?\s+(?:fall|drop)\w*|flowering\s+but|blossom\s+drop)\b/,
        4,
      ],
    ],
    answer: () =>
      'Blossoms drop without fruit when nights fall below about 55-60F or days top 90F, or when plants are stressed or over-fed with nitrogen. Keep watering evenly, skip high-nitrogen fertilizer, and gently shake plants midday to spread pollen. Fruit set picks up when the weather evens out.',
  },
  // ------------------------------------------------------------------ pests
  {
    id: 'aphids',
    topic: 'pests',
    match: [[/\baphids?\b/, 5]],
    answer: (ctx) =>
      compose(
        MAX,
        'Aphids: knock them off with a strong spray of water every few days, then treat what is left with insecticidal soap or neem oil, covering leaf undersides (in the evening). Ladybugs and lacewings move in if you avoid broad pesticides.',
        'Heavy infestations often mean too much nitrogen, so go easy on fertilizer.',
        byLevel(ctx, { beginner: 'A few aphids are normal; act when you see clusters.' }),
      ),
  },
  {
    id: 'slugs',
    topic: 'pests',
    match: [
      [/\b(?:slugs?|snails?)\b/, 5],
      [/\bbeer\b/, 1],
    ],
    answer: () =>
      'Slugs: hand-pick at dusk, set beer traps (sunk to the rim, refreshed every few days; they do work) or boards they hide under, and scatter iron phosphate bait like Sluggo, which is safe around pets. Water in the morning so the soil is dry at night, and keep thick mulch off seedlings.',
  },
  {
    id: 'hosta-holes',
    topic: 'pests',
    match: [
      [/\bhostas?\b/, 3],
      [/\b(?:eat\w*|holes?|chew\w*|munch\w*|destroy\w*)\b/, 3],
    ],
    requires: [/\bhostas?\b/],
    answer: () =>
      'Ragged holes in hosta leaves, often with slime trails, are slugs or snails: use iron phosphate bait or beer traps and check at night. If whole leaves vanish down to the stalks overnight, it is deer: use a repellent spray and reapply after rain, or fence.',
  },
  {
    id: 'squash-bugs',
    topic: 'pests',
    match: [
      [/\bsquash\s+bugs?\b/, 6],
      [/\b(?:gray|grey)\s+bugs?\b/, 3],
    ],
    answer: () =>
      'Squash bugs: check leaf undersides every day, scrape off the bronze egg clusters, and knock adults and gray nymphs into soapy water. Lay a board by the plants at night and squash the bugs under it each morning. Row cover until flowering keeps them off young plants; clean up debris in fall.',
  },
  {
    id: 'squash-vine-borer',
    topic: 'pests',
    match: [
      [/\bvine\s+borers?\b/, 6],
      [/\b(?:zucchini|squash|pumpkins?)\b/, 1],
      [/\b(?:wilt\w*|collaps\w*)\b/, 1],
      [/\b(?:sawdust|frass|mushy\s+stem|holes?\s+in\s+the\s+stem)\b/, 4],
    ],
    answer: () =>
      'Sudden wilting with sawdust-like frass at the base of squash is the squash vine borer. Slit the stem lengthwise, remove the white larva, then bury the stem section in moist soil so it re-roots. Next year wrap stems in foil or use row cover until midsummer, and plant a second crop later.',
  },
  {
    id: 'japanese-beetles',
    topic: 'pests',
    match: [
      [/\bjapanese\s+beetles?\b/, 6],
      [/\bskeletoniz\w*\b/, 2],
    ],
    answer: () =>
      "Japanese beetles: knock them into a bucket of soapy water in the early morning when they are sluggish. Skip the bag traps, which draw in more beetles than they catch. Neem slows feeding. Treating lawn grubs with milky spore or beneficial nematodes cuts next year's numbers.",
  },
  {
    id: 'cabbage-worms',
    topic: 'pests',
    match: [
      [/\b(?:cabbage\s*worms?|caterpillars?|green\s+worms?|loopers?)\b/, 4],
      [/\b(?:cabbage|kale|broccoli|collards?|cauliflower|brussels)\b/, 2],
      [/\bholes?\b/, 1],
    ],
    requires: [/\b(?:cabbage\s*worms?|caterpillars?|worms?|loopers?|holes?)\b/],
    answer: () =>
      'Green caterpillars on cabbage, kale or broccoli are cabbage worms or loopers. Hand-pick them and spray Bt (Bacillus thuringiensis), which only harms caterpillars and is safe for people, pets and bees. Cover plants with row cover to keep the white butterflies from laying eggs.',
  },
  {
    id: 'hornworms',
    topic: 'pests',
    match: [
      [/\bhorn\s?worms?\b/, 6],
      [/\b(?:big|huge|giant)\s+green\s+(?:caterpillars?|worms?)\b/, 3],
    ],
    answer: () =>
      'Tomato hornworms are big green caterpillars with a horn. Look for black droppings, then hand-pick them (they glow under a UV flashlight at night) or spray Bt on young ones. Leave any with white rice-like cocoons on their backs: parasitic wasps are already killing them.',
  },
  {
    id: 'spider-mites',
    topic: 'pests',
    match: [
      [/\bspider\s+mites?\b/, 6],
      [/\bmites?\b/, 3],
      [/\bwebbing\b/, 2],
    ],
    answer: () =>
      'Spider mites leave tiny pale speckles and fine webbing, mostly under leaves. Hose plants (especially undersides) every few days, raise humidity, and spray insecticidal soap or neem every 5-7 days for 3 rounds. They love hot, dry, dusty conditions, so keep plants watered.',
  },
  {
    id: 'fungus-gnats',
    topic: 'pests',
    match: [
      [/\bfungus\s+gnats?\b/, 6],
      [/\bgnats?\b/, 4],
      [/\b(?:tiny|little|small)\s+(?:black\s+)?(?:flies|bugs)\b/, 3],
      [/\b(?:houseplants?|soil|pots?|indoor)\b/, 1],
    ],
    answer: () =>
      'Tiny black flies around houseplants are fungus gnats breeding in damp soil. Let the top 2 inches dry between waterings, catch adults with yellow sticky traps, and water with BTI (Mosquito Bits soaked in water) to kill the larvae. Bottom-watering keeps the surface dry.',
  },
  {
    id: 'whiteflies',
    topic: 'pests',
    match: [[/\bwhite\s?fl(?:y|ies)\b/, 6]],
    answer: () =>
      'Whiteflies: hang yellow sticky traps, hose or vacuum them off leaf undersides, and spray insecticidal soap or neem every 5-7 days for several weeks to catch each new hatch. Indoors, isolate the plant. Avoid broad pesticides outdoors so their natural enemies survive.',
  },
  {
    id: 'grubs',
    topic: 'lawn',
    match: [
      [/\bgrubs?\b/, 6],
      [/\b(?:lawn|grass|turf)\b/, 1],
    ],
    answer: () =>
      'Peel back a square foot of turf: more than 5-10 white C-shaped grubs means it is worth treating. Apply beneficial nematodes or a grub product in mid to late summer when the grubs are young and near the surface; milky spore works long term on Japanese beetle grubs. Reseed damaged spots in fall.',
  },
  {
    id: 'holes-in-leaves',
    topic: 'pests',
    match: [
      [/\bholes?\b/, 3],
      [/\b(?:leaves|leaf)\b/, 1],
      [/\b(?:what'?s|whats|what\s+is|something)\s+(?:is\s+)?eating\b/, 4],
      [/\beat(?:ing|en)\b/, 1],
    ],
    excludes: [/\b(?:deer|rabbits?|squirrels?|hostas?|cabbage|kale|broccoli)\b/],
    answer: () =>
      'To find who is eating your plants, check at night with a flashlight and under leaves by day. Ragged holes and slime = slugs; small round holes = flea beetles; big chunks with green droppings = caterpillars (use Bt); leaves stripped overnight = deer or rabbits. Tell me the plant and I can be more specific.',
  },
  {
    id: 'deer',
    topic: 'wildlife',
    match: [[/\bdeer\b/, 5]],
    answer: () =>
      'Deer: the sure fix is an 8 ft fence (or two 4 ft fences 3-4 ft apart). Otherwise rotate repellents like Liquid Fence every 2-3 weeks and after rain, net prized plants, and grow what deer avoid: daffodils, lavender, salvia, catmint, alliums and ornamental grasses.',
  },
  {
    id: 'rabbits',
    topic: 'wildlife',
    match: [[/\b(?:rabbits?|bunn(?:y|ies))\b/, 5]],
    answer: () =>
      'Rabbits: a 2-3 ft chicken-wire fence with the bottom 6 inches buried or bent outward keeps them out. Row cover protects lettuce and beans, and repellents with egg or garlic help for a while. Clear brush piles where they hide.',
  },
  {
    id: 'rodents',
    topic: 'wildlife',
    match: [[/\b(?:squirrels?|chipmunks?|voles?|moles?|gophers?|groundhogs?|woodchucks?|raccoons?)\b/, 5]],
    answer: (ctx) =>
      /\bmoles?\b/.test(ctx.question)
        ? 'Moles eat grubs and worms, not plants; their tunnels are the problem. Trapping in active runs is the only reliable fix. Castor-oil repellents move them on for a while. Vole or gopher damage (chewed roots) is different: use hardware cloth under beds and traps.'
        : 'For squirrels, chipmunks and groundhogs: hardware cloth over bulbs and under raised beds, netting or cages over crops, and a fence buried 12 inches for groundhogs. Chili-based repellents deter squirrels. Remove fallen fruit and birdseed that draw them in.',
  },
  // ------------------------------------------------------------------ diseases
  {
    id: 'powdery-mildew',
    topic: 'diseases',
    match: [
      [/\bpowdery\s+mildew\b/, 6],
      [/\bwhite\s+(?:powder|dust|fuzz|coating|film|spots?)\b/, 5],
      [/\bmildew\b/, 3],
    ],
    answer: () =>
      'White powder on leaves is powdery mildew. Remove the worst leaves, improve airflow and water the soil, not the leaves. Spray every 7-10 days with potassium bicarbonate, sulfur or neem oil (or 1 tbsp baking soda + 1/2 tsp dish soap per gallon). It is common late in summer; choose resistant varieties next year.',
  },
  {
    id: 'blight',
    topic: 'diseases',
    match: [
      [/\bblight\b/, 5],
      [/\b(?:brown|black)\s+spots?\s+with\s+rings\b/, 4],
      [TOMATO, 1],
    ],
    answer: () =>
      'Early blight (brown spots with rings on lower leaves): remove spotted leaves, mulch, water at the soil and space plants for airflow. A copper or chlorothalonil spray every 7-10 days slows it. Late blight (large greasy patches, white fuzz) spreads fast: pull and bag the plants. Rotate beds next year.',
  },
  {
    id: 'black-spot-roses',
    topic: 'diseases',
    match: [
      [/\bblack\s+spots?\b/, 4],
      [/\broses?\b/, 2],
    ],
    requires: [/\bblack\s+spot/],
    answer: () =>
      'Black spot: pick off spotted leaves and clean up fallen ones, water at the base in the morning and prune for airflow. Spray new growth every 7-14 days with neem oil, sulfur or a rose fungicide. Disease-resistant roses like the Knock Out series save a lot of work.',
  },
  {
    id: 'leaf-spots',
    topic: 'diseases',
    match: [
      [/\b(?:brown|black|yellow|rust\w*|orange|dark)\s+spots?\b/, 4],
      [/\bspots?\b/, 2],
      [/\b(?:leaves|leaf)\b/, 1],
    ],
    requires: [/\bspot/],
    excludes: [/\bblack\s+spot\b.*\broses?\b|\broses?\b.*\bblack\s+spot\b/],
    answer: () =>
      'Most leaf spots are fungal and spread by splashing water. Remove spotted leaves, water at the soil in the morning, mulch, and give plants room for air. A copper or sulfur spray protects new growth. Orange powdery spots are rust; spots with yellow halos on tomatoes are often bacterial. Which plant is it?',
  },
  {
    id: 'boxwood',
    topic: 'trees and shrubs',
    match: [
      [/\bboxwoods?\b/, 5],
      [/\b(?:brown|dying|dead|orange|yellow|killing|wrong)\b/, 1],
    ],
    answer: () =>
      'Browning boxwoods usually have one of three causes: winter burn (brown on the sunny, windy side; trim and water in fall), boxwood blight (dark leaf spots, black stem streaks, fast leaf drop; bag debris and get a lab test), or root rot in wet soil. Blistered leaves mean leafminer.',
  },
  // ------------------------------------------------------------------ weeds and lawn
  {
    id: 'weeds-general',
    topic: 'weeds',
    match: [
      [/\bweed(?:s|ing)?\b/, 3],
      [/\b(?:get\s+rid|stop|control|prevent|kill|keep\s+down)\b/, 2],
      [/\b(?:garden|beds?)\b/, 1],
    ],
    requires: [/\bweed/],
    excludes: [
      /\bpavers?|patio|cracks?|walkway|driveway|gravel\b/,
      /\b(?:dandelions?|crabgrass|lawn|grass)\b/,
      /\bweed\s*killer.*\b(?:safe|dangerous)\b/,
    ],
    answer: () =>
      'Pull weeds while small, ideally when the soil is moist, then mulch 2-3 inches so new seeds cannot sprout. Hoe on dry, sunny days to slice seedlings. Never let weeds go to seed (one year of seeding means years of weeding). Drip irrigation waters your plants, not the weeds.',
  },
  {
    id: 'weeds-pavers',
    topic: 'weeds',
    match: [
      [/\b(?:pavers?|patio|cracks?|walkway|sidewalk|driveway|gravel|bricks?)\b/, 4],
      [/\bweeds?\b/, 2],
    ],
    requires: [/\bweeds?|grass|moss\b/],
    answer: () =>
      'Between pavers: scrape the weeds out or pour boiling water on them, then sweep polymeric sand into the joints and mist it to set, which blocks new weeds. Horticultural vinegar or a flame weeder handles young ones. Repeat a few times early in the season.',
  },
  {
    id: 'dandelions',
    topic: 'weeds',
    match: [[/\bdandelions?\b/, 6]],
    answer: () =>
      'Dandelions: dig out the whole taproot with a weeding fork when the soil is moist, or spot-spray a lawn broadleaf weed killer in fall, when it works best. Long term, a thick lawn mowed at 3-4 inches crowds them out. Or leave a few: they are early food for bees.',
  },
  {
    id: 'crabgrass',
    topic: 'weeds',
    match: [[/\bcrabgrass\b/, 6]],
    answer: (ctx) =>
      compose(
        MAX,
        `Prevent crabgrass with a pre-emergent (or corn gluten meal) in spring when soil reaches 55F, about when forsythia finishes blooming${ctx.lastFrost ? ` (around ${upcomingRange(ctx, 'last', [-4, -2])} in zone ${ctx.zone})` : ''}.`,
        'Mow at 3-4 inches so shade stops its seeds sprouting and pull young clumps. It dies at first frost: overseed bare spots in fall.',
      ),
  },
  {
    id: 'invasive-ivy',
    topic: 'weeds',
    match: [
      [/\b(?:english\s+)?ivy\b/, 3],
      [/\b(?:taking\s+over|get\s+rid|remove|kill\w*|invasive|choking|climbing)\b/, 3],
    ],
    requires: [/\bivy\b/],
    excludes: [/\bpoison\s+ivy\b/],
    answer: () =>
      'Cut ivy vines at the base of each tree in a 3 ft band and leave the upper vines to die. On the ground, pull it when the soil is moist, or cut it low and smother it with cardboard and 4 inches of mulch for a season. Bag it; bits left on soil re-root. Wear gloves.',
  },
  {
    id: 'moss-lawn',
    topic: 'lawn',
    match: [
      [/\bmoss\b/, 5],
      [/\b(?:lawn|grass|yard)\b/, 1],
    ],
    answer: () =>
      'Moss means the grass is losing to shade, acidic or compacted soil, or damp. Rake out the moss, test the pH and lime if it is below 6, aerate, and overseed with a shade-tolerant fescue in early fall. In deep shade, consider a moss lawn or a shade ground cover instead.',
  },
  {
    id: 'lawn-fertilize',
    topic: 'lawn',
    match: [
      [/\b(?:lawn|grass|turf)\b/, 2],
      [/\b(?:fertili[sz]\w*|feed\w*|weed\s+and\s+feed)\b/, 3],
    ],
    requires: [/\b(?:lawn|grass|turf|yard)\b/, /\b(?:fertili[sz]|feed)/],
    answer: (ctx) => {
      const type = lawnType(ctx);
      const cool =
        'Cool-season lawns (fescue, bluegrass, rye): feed in early fall (the most important), again in late fall, and lightly in late spring.';
      const warm =
        'Warm-season lawns (Bermuda, zoysia, St. Augustine): feed from late spring, once green, to late summer.';
      return compose(
        MAX,
        type === 'cool' ? cool : type === 'warm' ? warm : `${cool} ${warm}`,
        type
          ? `In zone ${ctx.zone} you most likely have ${type === 'transition' ? 'either; tall fescue is common' : `a ${type}-season lawn`}.`
          : null,
        'Use about 1 lb of nitrogen per 1000 sq ft each time, slow-release, and skip feeding in drought.',
      );
    },
  },
  {
    id: 'mowing-height',
    topic: 'lawn',
    match: [
      [/\bmow\w*\b/, 4],
      [/\b(?:high|short|low|height|tall|often|inches)\b/, 2],
      [/\b(?:grass|lawn)\b/, 1],
    ],
    requires: [/\bmow|\bcut\b.*\bgrass/],
    answer: () =>
      'Mow high: 3-4 inches for fescue, bluegrass and rye; 1-2 inches for Bermuda and zoysia; 2.5-4 for St. Augustine. Never cut more than a third of the blade at once, keep the blade sharp, and leave the clippings: they return nitrogen to the lawn.',
  },
  {
    id: 'lawn-seed-timing',
    topic: 'lawn',
    match: [
      [
        /\b(?:overseed\w*|reseed\w*|grass\s+seed|seed\s+(?:my|the)\s+(?:lawn|yard)|plant\s+grass|new\s+lawn)\b/,
        5,
      ],
      [/\bwhen\b/, 1],
      [/\bshade\b/, 1],
    ],
    answer: (ctx) => {
      const type = lawnType(ctx);
      const shade = /\bshade|shady\b/.test(ctx.question)
        ? ' For shade, use a fine or tall fescue blend.'
        : '';
      if (!type) {
        return compose(
          MAX,
          `Sow cool-season grass (fescue, bluegrass, rye) in late summer to early fall, 6-8 weeks before your first frost; spring is second best. Sow warm-season grass (Bermuda, zoysia) in late spring once soil is 65F.${shade}`,
          zipHint(ctx),
        );
      }
      const cool = upcomingRange(ctx, 'first', [-8, -5]);
      const warm = upcomingRange(ctx, 'last', [4, 8]);
      return compose(
        MAX,
        type === 'warm'
          ? `In zone ${ctx.zone}, sow warm-season grass (Bermuda, zoysia, centipede) in late spring to early summer${warm ? `, about ${warm}` : ''}, once soil is 65F.`
          : `In zone ${ctx.zone}, the best time for cool-season grass seed is late summer to early fall${cool ? `, about ${cool}` : ''}; mid-spring is second best.`,
        shade || null,
        'Rake seed into loosened soil, keep it moist with light daily watering until it is 2 inches tall, and skip weed killers until you have mowed 3 times.',
      );
    },
  },
  {
    id: 'lawn-brown-patches',
    topic: 'lawn',
    requires: [/\b(?:patch|spot|area)/, /\b(?:lawn|grass|yard|turf|patch\w*)\b/],
    match: [
      [/\b(?:brown|dead|bare|yellow)\s+(?:patch\w*|spots?|areas?)\b/, 4],
      [/\b(?:lawn|grass|yard|turf)\b/, 2],
      [/\bdog\b/, 1],
    ],
    answer: () =>
      'Brown patches: tug the grass. If it lifts like carpet, it is grubs. Dead spots with green rims are often dog urine (water them well). Tan rings in hot, humid weather are brown patch fungus: water only in the morning and hold off on nitrogen. Dry, hard spots need aeration and deep watering.',
  },
  // ------------------------------------------------------------------ pruning
  {
    id: 'prune-roses',
    topic: 'pruning',
    match: [
      [/\broses?\b/, 3],
      [/\b(?:prun\w*|cut\s+back|trim\w*)\b/, 3],
    ],
    requires: [/\broses?\b/, /\b(?:prun|cut|trim)/],
    answer: (ctx) => {
      const when =
        ctx.frostFree || (ctx.zoneNumber ?? 0) >= 10
          ? 'in January'
          : ctx.lastFrost
            ? `around ${upcomingRange(ctx, 'last', [-5, -2])}`
            : 'in late winter to early spring';
      return compose(
        MAX,
        bySeason(ctx, {
          summer: 'In summer just deadhead spent blooms and remove dead wood.',
          fall: 'Wait until late winter for the main pruning; in fall only remove dead or broken canes.',
        }),
        `Prune roses as buds swell, when forsythia blooms (${when}). Cut out dead, damaged and crossing canes, then shorten healthy canes by about a third to an outward-facing bud.`,
        'Prune climbers and once-bloomers right after they flower.',
      );
    },
  },
  {
    id: 'prune-fruit-trees',
    topic: 'pruning',
    match: [
      [/\b(?:apple|pear|peach|plum|cherry|fruit|fig|apricot|nectarine)\s+trees?\b/, 3],
      [/\b(?:apples?|pears?|peach(?:es)?|plums?|cherr(?:y|ies))\b/, 1],
      [/\b(?:prun\w*|trim\w*|cut\s+back)\b/, 3],
    ],
    requires: [/\b(?:prun|trim|cut)/],
    answer: (ctx) =>
      compose(
        MAX,
        'Prune apples and pears in late winter while dormant: remove dead, diseased and crossing branches, suckers and straight-up water sprouts, and open the center to light. Keep 3-5 main scaffold limbs and never remove more than a quarter of the tree in a year.',
        'Prune peaches, plums and cherries in late spring or summer to avoid disease.',
        bySeason(ctx, { summer: 'Now: only remove water sprouts and damaged wood.' }),
      ),
  },
  {
    id: 'prune-hydrangeas',
    topic: 'pruning',
    match: [
      [/\bhydrangeas?\b/, 3],
      [/\b(?:prun\w*|cut\s+back|trim\w*)\b/, 3],
    ],
    requires: [/\bhydrangeas?\b/, /\b(?:prun|cut|trim)/],
    answer: () =>
      'It depends on the type. Bigleaf (blue or pink) and oakleaf hydrangeas bloom on old wood: prune only right after flowering in summer, and just deadhead in spring. Panicle and smooth types (Limelight, Annabelle) bloom on new wood: cut them back in late winter.',
  },
  {
    id: 'hydrangea-no-blooms',
    topic: 'flowers',
    match: [
      [/\bhydrangeas?\b/, 3],
      [
        /\b(?:no\s+(?:blooms?|flowers?)|not\s+bloom\w*|didn'?t\s+bloom|won'?t\s+bloom|never\s+bloom\w*|just\s+leaves|only\s+leaves)\b/,
        4,
      ],
    ],
    requires: [/\bhydrangeas?\b/],
    answer: () =>
      "Hydrangeas that leaf out but do not bloom were usually pruned at the wrong time or had their buds killed by a late freeze or cold winter (bigleaf types bloom on last year's wood). Too much shade or nitrogen also cuts flowers. Prune bigleaf types only right after bloom, and try reblooming varieties.",
  },
  {
    id: 'pruning-shrubs',
    topic: 'pruning',
    match: [
      [/\b(?:prun\w*|trim\w*|cut\s+back)\b/, 3],
      [/\b(?:shrubs?|bush(?:es)?|hedges?|lilacs?|forsythia|azaleas?|trees?)\b/, 2],
      [/\bwhen\b/, 1],
    ],
    requires: [/\b(?:prun|trim|cut)/],
    answer: () =>
      'Rule of thumb: spring-flowering shrubs (lilac, forsythia, azalea) bloom on old wood, so prune right after they flower. Summer bloomers and most shade trees: prune in late winter while dormant. Remove dead wood any time. Never take more than a third at once.',
  },
  {
    id: 'deadheading',
    topic: 'flowers',
    match: [
      [/\bdeadhead\w*\b/, 6],
      [/\b(?:spent|old)\s+(?:flowers?|blooms?)\b/, 3],
    ],
    answer: () =>
      'Deadheading (removing faded flowers) keeps annuals and many perennials blooming. Pinch or snip the spent flower back to the next leaf or bud. Skip it for self-cleaning plants (impatiens, most petunias) and leave late seed heads on coneflowers and rudbeckia for birds.',
  },
  // ------------------------------------------------------------------ soil and compost
  {
    id: 'compost-start',
    topic: 'compost',
    match: [
      [/\bcompost\w*\b/, 3],
      [/\b(?:start|make|begin|how\s+(?:do|to)|pile|bin)\b/, 2],
    ],
    requires: [/\bcompost/],
    excludes: [/\b(?:smell\w*|stink\w*|coffee)\b/],
    answer: () =>
      'Start a pile about 3x3 ft. Mix roughly 3 parts browns (dry leaves, straw, cardboard) to 1 part greens (kitchen scraps, grass clippings, coffee grounds). Keep it as damp as a wrung-out sponge and turn it every 1-2 weeks. No meat, dairy, oils or pet waste. It is ready in 2-6 months when dark and crumbly.',
  },
  {
    id: 'compost-smell',
    topic: 'compost',
    match: [
      [/\bcompost\w*\b/, 2],
      [/\b(?:smell\w*|stink\w*|odou?r|slimy|ammonia|rotten)\b/, 4],
    ],
    requires: [/\b(?:smell|stink|odou?r|slimy|ammonia|rotten)/],
    answer: () =>
      'A bad smell means too wet or too many greens: ammonia or rotten-egg smells. Mix in dry browns like shredded leaves, cardboard or straw and turn the pile to let air in. If it is slimy, add more browns and cover it from rain. A healthy pile smells like earth.',
  },
  {
    id: 'coffee-grounds',
    topic: 'compost',
    match: [[/\bcoffee\s+grounds?\b/, 6]],
    answer: () =>
      'Coffee grounds make a good compost green, and you can spread a thin layer (under 1/2 inch) on beds or mix them into soil. Used grounds are only slightly acidic, so they barely change pH. Do not pile them thick: they crust and shed water. Worms love them.',
  },
  {
    id: 'fall-leaves',
    topic: 'compost',
    match: [
      [
        /\b(?:fall\s+leaves|leaves\s+in\s+(?:the\s+)?fall|raking\s+leaves|leaf\s+mold|fallen\s+leaves|dead\s+leaves)\b/,
        5,
      ],
      [/\b(?:rake|mulch|compost|what\s+to\s+do)\b/, 1],
    ],
    answer: () =>
      'Fallen leaves are free fertility: mow them into the lawn where they fall, shred them as mulch for beds (2-3 inches), or pile them in a wire bin to become leaf mold in a year. Keep thick, matted layers off the lawn and away from tree trunks.',
  },
  {
    id: 'soil-ph-acid',
    topic: 'soil',
    match: [
      [/\b(?:ph|acidic|acidify|acid\s+soil)\b/, 3],
      [/\b(?:lower|reduce|decrease|down|more\s+acid)\b/, 2],
      [/\bblueberr\w*\b/, 1],
    ],
    requires: [/\b(?:ph|acid)/],
    excludes: [/\b(?:raise|increase|higher|up)\b/],
    answer: () =>
      'Test first. Blueberries want pH 4.5-5.5. Work in elemental sulfur: about 1 lb per 100 sq ft lowers pH roughly one point in sandy soil (more in clay). It takes months, so apply in fall for spring. Mulch with pine needles or bark and feed with an acid fertilizer such as ammonium sulfate.',
  },
  {
    id: 'soil-ph-raise',
    topic: 'soil',
    match: [
      [/\b(?:ph|acidic|sour\s+soil)\b/, 3],
      [/\b(?:raise|increase|higher|up|lime)\b/, 3],
    ],
    requires: [/\b(?:ph|acidic|sour)/],
    answer: () =>
      'To raise pH, spread garden lime (dolomitic if magnesium is low) in fall: roughly 5 lb per 100 sq ft raises pH about one point in loam, less in sand and more in clay. Water it in; it takes 2-6 months to work. Most vegetables like 6.2-7.0. A soil test gives the exact amount.',
  },
  {
    id: 'soil-test',
    topic: 'soil',
    match: [
      [/\bsoil\s+test\w*\b/, 5],
      [/\btest\w*\b/, 2],
      [/\bsoil\b/, 2],
    ],
    requires: [/\btest/],
    answer: (ctx) =>
      compose(
        MAX,
        'Get a soil test from your county extension office (usually $15-30): it reports pH, nutrients and exactly what to add. Take 10-15 small samples 6 inches deep across the bed, mix them, and send about 2 cups. Fall testing gives amendments time to work by spring. Home kits are fine for pH only.',
        ctx.state ? `Search "${stateName(ctx.state) ?? ctx.state} extension soil test".` : null,
      ),
  },
  {
    id: 'clay-soil',
    topic: 'soil',
    match: [
      [/\bclay\b/, 4],
      [/\b(?:improve|fix|amend|break\s+up|heavy|hard|drain\w*)\b/, 2],
      [/\bsoil\b/, 1],
    ],
    requires: [/\bclay\b/],
    excludes: [/\bwhat\s+(?:vegetables|plants|grows?)\b/],
    answer: () =>
      'Improve clay with organic matter, not sand: spread 2-3 inches of compost every year and work it into the top 6-8 inches, or build raised beds. Never dig it wet. Mulch and cover crops keep improving it. Gypsum only helps salty soils. Clay holds nutrients well, so it is worth the effort.',
  },
  {
    id: 'clay-plants',
    topic: 'soil',
    match: [
      [/\bclay\b/, 3],
      [/\bwhat\s+(?:vegetables|plants|flowers|grows?|can\s+i\s+grow|to\s+plant)\b|\b(?:grow|do)\s+well\b/, 3],
    ],
    requires: [/\bclay\b/],
    answer: () =>
      'Vegetables that handle clay: beans, peas, broccoli, cabbage, kale, chard, squash and potatoes (in hills); avoid carrots and parsnips unless in a raised bed. Flowers that love clay: asters, coneflowers, black-eyed Susans, daylilies, hostas and bee balm. Add compost each year either way.',
  },
  {
    id: 'raised-bed-soil',
    topic: 'raised beds',
    match: [
      [/\braised\s+(?:garden\s+)?beds?\b/, 3],
      [/\b(?:soil|fill|mix|dirt)\b/, 3],
    ],
    requires: [/\braised|\bbeds?\b/, /\b(?:soil|fill|mix|dirt)\b/],
    answer: () =>
      'Fill raised beds with about 60% screened topsoil and 40% compost, or a bagged raised-bed mix; not pure potting soil or bare garden dirt. Top up with 1-2 inches of compost each spring. For deep beds, fill the bottom third with logs, branches or leaves to save money (hugelkultur).',
  },
  {
    id: 'raised-bed-depth',
    topic: 'raised beds',
    match: [
      [/\braised\s+(?:garden\s+)?beds?\b/, 3],
      [/\b(?:deep|depth|tall|high|how\s+big|size|wide)\b/, 3],
    ],
    requires: [/\b(?:raised|beds?)\b/, /\b(?:deep|depth|tall|high|big|size|wide)\b/],
    answer: () =>
      'Most vegetables do well in 8-12 inches of soil when the ground below is loosened. Go 12-18 inches over heavy clay or for carrots and potatoes, and 18-24 inches on concrete or for easy reach. Keep beds 3-4 ft wide so you never step in them, with paths at least 18 inches wide.',
  },
  {
    id: 'raised-bed-general',
    topic: 'raised beds',
    match: [[/\braised\s+(?:garden\s+)?beds?\b/, 4]],
    answer: () =>
      'Raised beds warm up earlier, drain well and save your back. Build them 3-4 ft wide and 10-12 inches deep from untreated wood, metal or stone, in 6-8 hours of sun. Fill with 60% topsoil and 40% compost, add 1-2 inches of compost each spring, and use drip or soaker hoses since they dry faster.',
  },
  {
    id: 'mulch-vegetables',
    topic: 'mulch',
    match: [
      [/\bmulch\w*\b/, 3],
      [/\b(?:vegetables?|veggie|garden|beds?|tomato\w*)\b/, 2],
      [/\bshould\s+i\b/, 1],
    ],
    requires: [/\bmulch/],
    excludes: [/\btrees?\b/, /\bstrawberr/, /\bhow\s+(?:thick|deep)\b/],
    answer: (ctx) =>
      compose(
        MAX,
        'Yes: 2-3 inches of straw, shredded leaves or untreated grass clippings keeps moisture even, blocks weeds and feeds the soil. Keep it an inch away from stems.',
        ctx.lastFrost && ctx.season === 'spring'
          ? `For tomatoes, peppers and squash wait until the soil warms, about ${formatDate(addDays(ctx.lastFrost, 21))} in zone ${ctx.zone}.`
          : 'For warm crops like tomatoes, wait until the soil has warmed in late spring.',
        'Avoid mixing fresh wood chips into beds; on top they are fine for paths.',
      ),
  },
  {
    id: 'mulch-trees',
    topic: 'mulch',
    match: [
      [/\bmulch\w*\b/, 3],
      [/\b(?:trees?|shrubs?|thick|deep|inches|volcano)\b/, 2],
    ],
    requires: [/\bmulch/],
    answer: () =>
      'Spread mulch 2-4 inches deep in a wide ring, out to the drip line if you can, and keep it 3-6 inches away from the trunk. Never pile it against the bark in a "mulch volcano": that causes rot and girdling roots. Wood chips are ideal; top them up as they break down.',
  },
  {
    id: 'strawberry-winter-mulch',
    topic: 'mulch',
    match: [
      [/\bstrawberr\w*\b/, 3],
      [/\b(?:mulch\w*|straw|winter\w*|cover)\b/, 3],
    ],
    requires: [/\bstrawberr/, /\b(?:mulch|straw|winter|cover)/],
    answer: (ctx) =>
      (ctx.zoneNumber ?? 0) >= 8
        ? `In zone ${ctx.zone} strawberries rarely need winter mulch; a light layer of straw between rows just keeps fruit clean and weeds down.`
        : compose(
            MAX,
            'Yes in cold areas: after a few hard frosts, when the soil is near 20F (usually late fall), cover plants with 3-4 inches of clean straw. Pull it back in spring when growth starts and leave it between rows to keep berries clean.',
            ctx.firstFrost
              ? `In zone ${ctx.zone} that is usually around ${formatDate(addDays(ctx.firstFrost, 28))}.`
              : null,
          ),
  },
  {
    id: 'frost-protection',
    topic: 'frost protection',
    match: [
      [/\b(?:frost|freez\w*|froze|cold\s+snap|cold\s+night)\b/, 3],
      [/\b(?:protect\w*|cover\w*|save|tonight|sheets?|blankets?)\b/, 3],
    ],
    requires: [/\b(?:frost|freez|froze|cold)/],
    excludes: [/\b(?:when|date|dates)\b.*\b(?:last|first)\s+frost\b/],
    answer: (ctx) =>
      compose(
        MAX,
        "Before dark, water the soil (moist soil holds heat), then cover plants to the ground with sheets, buckets or frost cloth so the ground's warmth is trapped; keep plastic off the leaves. Move pots against the house or inside. Uncover in the morning. Tomatoes, peppers and basil are hurt at 32F.",
        ctx.frost && !ctx.frostFree
          ? `Average frosts in zone ${ctx.zone}: last ~${formatDate(ctx.lastFrost ?? ctx.today)}, first ~${formatDate(ctx.firstFrost ?? ctx.today)}.`
          : null,
      ),
  },
  {
    id: 'frost-dates',
    topic: 'planting schedule',
    match: [
      [/\b(?:last|first)\s+frost\b/, 4],
      [/\bfrost\s+dates?\b/, 5],
      [/\bwhen\b/, 1],
    ],
    answer: (ctx) =>
      ctx.frost
        ? ctx.frostFree
          ? `Zone ${ctx.zone} is essentially frost-free, so you can plant year-round; the cool season (Oct-Mar) is prime time for most vegetables.`
          : `In zone ${ctx.zone}, the average last spring frost is around ${formatDate(ctx.lastFrost ?? ctx.today)} and the first fall frost around ${formatDate(ctx.firstFrost ?? ctx.today)}, about ${ctx.frost.growingSeasonDays} frost-free days. Frost can come 2 weeks either way, so watch the forecast.`
        : compose(
            MAX,
            'Frost dates depend on where you are: zone 5 averages a last frost in late April, zone 7 early April, zone 9 February.',
            zipHint(ctx),
          ),
  },
  // ------------------------------------------------------------------ houseplants
  {
    id: 'snake-plant',
    topic: 'houseplants',
    match: [
      [/\b(?:snake\s+plants?|sansevieria|mother[\s-]in[\s-]law'?s?\s+tongue)\b/, 4],
      [/\b(?:wrinkl\w*|curl\w*|droop\w*|falling\s+over|care)\b/, 2],
    ],
    requires: [/\b(?:snake\s+plant|sansevieria|tongue)/],
    excludes: [/\b(?:mushy|soft|rot\w*|squishy)\b/],
    answer: () =>
      'Snake plants thrive on neglect: water only when the soil is completely dry (every 2-4 weeks, less in winter), in a pot with a drain hole and gritty mix. Wrinkled or curling leaves mean it is thirsty; mushy bases mean too much water. Any light works, but brighter means faster growth.',
  },
  {
    id: 'fiddle-leaf-fig',
    topic: 'houseplants',
    match: [
      [/\bfiddle\s*leaf(?:\s+figs?)?\b/, 5],
      [/\b(?:light|sun|window|dropp\w*|brown|leaves)\b/, 1],
    ],
    answer: () =>
      'Fiddle leaf figs need lots of bright light: right beside a bright window with some gentle direct sun (east is ideal; filter harsh south or west sun). Low light, drafts and moving it cause leaf drop. Water when the top 2 inches are dry and rotate a quarter turn monthly. Brown spots often mean overwatering.',
  },
  {
    id: 'pothos-yellow',
    topic: 'houseplants',
    requires: [HOUSEPLANT, /\byellow/],
    match: [
      [/\b(?:pothos|philodendron|monstera|peace\s+lil(?:y|ies)|houseplants?)\b/, 3],
      [/\byellow\w*\b/, 3],
    ],
    answer: () =>
      'Yellow leaves on a houseplant usually mean overwatering: let the top half of the soil dry between waterings and make sure the pot drains. One old leaf yellowing now and then is normal. Pale, small leaves mean too little light; crispy brown edges mean too dry.',
  },
  {
    id: 'houseplant-drooping',
    topic: 'houseplants',
    requires: [HOUSEPLANT, /\b(?:droop|wilt|limp|sad)/],
    match: [
      [HOUSEPLANT, 3],
      [/\b(?:droop\w*|wilt\w*|limp|sad)\b/, 3],
    ],
    answer: () =>
      'A drooping houseplant is usually thirsty: if the soil is dry 2 inches down, soak it and it should perk up within hours. If the soil is wet and it still droops, the roots may be rotting, so let it dry out and check for mushy roots. Peace lilies droop dramatically when dry and recover fast.',
  },
  {
    id: 'houseplant-light',
    topic: 'houseplants',
    requires: [HOUSEPLANT, /\b(?:light|sun|window|bright)\b/],
    match: [
      [HOUSEPLANT, 2],
      [/\b(?:light|sun|window|low\s+light|bright)\b/, 3],
    ],
    answer: () =>
      'Most houseplants like bright, indirect light: near an east window or a few feet back from a south or west one. Low-light tolerant: snake plant, ZZ, pothos, peace lily. Sun lovers: succulents, cacti, citrus. Leggy, pale growth means more light is needed; scorched patches mean too much direct sun.',
  },
  {
    id: 'orchid-after-bloom',
    topic: 'houseplants',
    match: [
      [/\borchids?\b/, 4],
      [/\b(?:bloom\w*|flowers?|spike|fell|fall\w*|after|rebloom)\b/, 2],
    ],
    requires: [/\borchids?\b/],
    answer: () =>
      'After the flowers drop, cut the spike just above a node (a small bump) for a chance of rebloom, or at the base if it is brown. Keep it in bright indirect light, water about weekly when the bark is nearly dry, and feed lightly. A 10-15F drop at night in fall triggers new spikes. Repot in bark every 1-2 years.',
  },
  {
    id: 'propagate-cuttings',
    topic: 'propagation',
    match: [
      [/\b(?:propagat\w*|cuttings?|root\s+(?:a|in\s+water)|clone)\b/, 4],
      [/\b(?:pothos|philodendron|monstera|basil|rosemary|geraniums?|succulents?|hoya)\b/, 1],
    ],
    answer: (ctx) =>
      /\bsucculent|jade|echeveria/.test(ctx.question)
        ? 'Twist off a healthy leaf or cut a stem piece, let it dry 2-3 days until the cut calluses, then lay it on dry cactus mix. Mist lightly once roots appear (2-4 weeks) and keep it in bright indirect light.'
        : 'Cut a 4-6 inch piece just below a node (where a leaf meets the stem), remove the lowest leaves, and set it in water or moist potting mix. In bright indirect light roots form in 2-4 weeks; pot it up when roots are 1-2 inches long. Pothos, philodendron and basil root easily in water.',
  },
  {
    id: 'divide-perennials',
    topic: 'propagation',
    match: [
      [/\b(?:divid\w*|division|split)\b/, 4],
      [/\b(?:hostas?|perennials?|irises?|daylil\w*|clumps?|ornamental\s+grass)\b/, 2],
    ],
    requires: [/\b(?:divid|division|split)/],
    excludes: [/\b(?:tomato\w*|crack\w*)\b/],
    answer: () =>
      'Divide most perennials (hostas, daylilies, grasses) in early spring as shoots appear or in early fall, 6 weeks before the ground freezes. Dig the clump, cut it into pieces with a sharp spade, each with roots and shoots, and replant at the same depth. Water well. Divide bearded iris in late summer.',
  },
  {
    id: 'overwinter-geraniums',
    topic: 'overwintering',
    match: [
      [
        /\b(?:overwinter\w*|over-winter\w*|winter\s+over|keep\s+(?:them|it)\s+(?:alive|over)|through\s+(?:the\s+)?winter|survive\s+(?:the\s+)?winter|bring\s+(?:them|it)\s+in)\b/,
        4,
      ],
      [/\b(?:geraniums?|pelargoniums?|dahlias?|cannas?|begonias?|fuchsias?|figs?|rosemary|peppers?)\b/, 2],
    ],
    answer: (ctx) =>
      /\b(?:dahlias?|cannas?|begonias?)\b/.test(ctx.question)
        ? 'After frost blackens the leaves, cut stems to 4 inches, dig the tubers, let them dry a few days, then store them in a box of barely damp peat or wood shavings at 40-50F. Check monthly and replant after your last frost.'
        : 'For geraniums: pot them up and grow them in a sunny window, take 4-inch cuttings to root, or store them dormant: dig before frost, shake off soil and hang upside down in a cool (45-50F), dark spot, misting roots monthly. Cut back and replant after the last frost.',
  },
  // ------------------------------------------------------------------ fruit
  {
    id: 'blueberries',
    topic: 'berries',
    match: [
      [/\bblueberr\w*\b/, 4],
      [/\b(?:grow\w*|plant\w*|care|how)\b/, 1],
    ],
    excludes: [/\bph\b/],
    answer: (ctx) =>
      compose(
        MAX,
        'Blueberries need acidic soil (pH 4.5-5.5), full sun and steady moisture. Plant two varieties for better crops, mix in peat or pine bark, mulch with pine needles and feed with azalea fertilizer. Pick off flowers the first year.',
        ctx.zoneNumber !== null
          ? ctx.zoneNumber <= 6
            ? `In zone ${ctx.zone}, choose northern highbush types like Bluecrop or Patriot.`
            : ctx.zoneNumber >= 8
              ? `In zone ${ctx.zone}, choose southern highbush or rabbiteye types.`
              : `In zone ${ctx.zone}, northern highbush and rabbiteye both work.`
          : null,
      ),
  },
  {
    id: 'raspberries-blackberries',
    topic: 'berries',
    match: [[/\b(?:raspberr\w*|blackberr\w*|brambles?)\b/, 4]],
    answer: () =>
      'Raspberries and blackberries want full sun, rich well-drained soil and a trellis. Summer-bearing types fruit on 2nd-year canes: cut those to the ground after harvest. Fall-bearing raspberries can simply be mowed to the ground in late winter. Mulch well and water deeply during fruiting.',
  },
  {
    id: 'citrus-leaf-curl',
    topic: 'citrus',
    requires: [
      /\b(?:citrus|lemon|lime|orange|meyer|kumquat|grapefruit|mandarin|satsuma)/,
      /\b(?:curl|yellow|drop|fall)/,
    ],
    match: [
      [/\b(?:citrus|lemon|lime|orange|meyer|kumquat|grapefruit|mandarin|satsuma)\b/, 3],
      [/\b(?:curl\w*|yellow\w*|dropp\w*|falling|leaves)\b/, 2],
    ],
    answer: () =>
      'Curling citrus leaves usually mean water stress (too dry, or soggy roots) or pests: check new growth for aphids, mites or leafminer trails. Water deeply when the top 2 inches are dry, give full sun or very bright light, and feed citrus fertilizer spring to fall. Indoors, drafts and dry air also cause curling.',
  },
  {
    id: 'citrus-growing',
    topic: 'citrus',
    match: [
      [/\b(?:citrus|lemons?|limes?|oranges?|meyer|kumquats?|grapefruit|mandarins?|satsumas?)\b/, 3],
      [/\b(?:grow\w*|indoors?|inside|outside|pots?|container)\b/, 2],
    ],
    requires: [/\b(?:citrus|lemon|lime|orange|meyer|kumquat|grapefruit|mandarin|satsuma)/],
    answer: (ctx) =>
      compose(
        MAX,
        ctx.zoneNumber !== null && ctx.zoneNumber >= 9
          ? `In zone ${ctx.zone} citrus can grow outdoors; satsumas and kumquats are the most cold-hardy. Protect young trees below 28F.`
          : ctx.zoneNumber !== null && ctx.zoneNumber === 8
            ? `In zone ${ctx.zone}, satsumas and kumquats can live outdoors in a sheltered spot with frost protection; others belong in pots.`
            : 'Grow citrus in a pot: dwarf Meyer lemons and calamondins do best.',
        'Give it the sunniest spot (south window or grow light), gritty citrus mix, water when the top 2 inches are dry and feed citrus fertilizer. Move pots inside before nights drop below 40F.',
      ),
  },
  {
    id: 'fig-hardiness',
    topic: 'fruit trees',
    match: [
      [/\bfigs?\b/, 3],
      [/\b(?:cold|hardy|winter|zone|grow|survive|too\s+cold)\b/, 2],
    ],
    requires: [/\bfigs?\b/],
    excludes: [/\bfiddle\b/, /\bweeping\s+fig\b/],
    answer: (ctx) =>
      compose(
        MAX,
        ctx.zoneNumber === null
          ? 'Figs grow outdoors in zones 7-10; hardy types like Chicago Hardy and Brown Turkey survive zone 6 with winter protection and regrow from roots if killed back.'
          : ctx.zoneNumber >= 8
            ? `Zone ${ctx.zone} is great for figs; Brown Turkey, Celeste and LSU types thrive in the ground.`
            : ctx.zoneNumber >= 6
              ? `Zone ${ctx.zone} works for hardy figs like Chicago Hardy or Brown Turkey: plant by a south wall, mulch the base deeply in late fall and wrap young plants; they regrow from roots if frozen back.`
              : `Zone ${ctx.zone} is too cold for figs in the ground: grow one in a big pot and store it in an unheated garage over winter.`,
        'They fruit best in full sun and do not need much fertilizer.',
      ),
  },
  {
    id: 'tropical-fruit',
    topic: 'fruit trees',
    match: [[/\b(?:mangos?|mangoes|avocados?|papayas?|bananas?|lychee|guava)\b/, 4]],
    answer: (ctx) =>
      ctx.zoneNumber !== null && ctx.zoneNumber >= 10
        ? `Yes, zone ${ctx.zone} suits tropical fruit. Plant in full sun in spring after cool weather, in well-drained soil (mango and avocado hate wet feet), water deeply while young and protect from the rare cold night below 35F. Grafted trees fruit in 3-4 years; seedlings take 6+.`
        : 'Mango, avocado and banana need frost-free warmth (zones 10-11). Elsewhere grow them in a big pot outside in summer and bring them in below 50F, though fruit is rare indoors. Cold-hardy avocados (Mexicola types) handle brief dips to about 20F in zone 9.',
  },
  {
    id: 'fruit-tree-planting',
    topic: 'fruit trees',
    match: [
      [/\b(?:apple|pear|peach|plum|cherry|fruit)\s+trees?\b/, 3],
      [/\b(?:plant\w*|grow\w*|which|variet\w*|pollinat\w*)\b/, 2],
    ],
    requires: [/\btrees?\b/],
    answer: (ctx) =>
      compose(
        MAX,
        'Plant fruit trees while dormant in early spring (or fall where winters are mild) in full sun and well-drained soil. Most apples, pears and sweet cherries need a second variety nearby for pollination; peaches and sour cherries are self-fertile.',
        ctx.zone ? `Pick varieties rated for zone ${ctx.zone} with enough chill hours for your area.` : null,
        'Expect fruit in 3-5 years.',
      ),
  },
  // ------------------------------------------------------------------ flowers and trees
  {
    id: 'plant-a-tree',
    topic: 'trees and shrubs',
    match: [
      [/\b(?:plant|planting)\s+(?:a|an|my|the|new)?\s*(?:\w+\s+)?(?:trees?|shrubs?|bush(?:es)?)\b/, 4],
      [/\bhow\b/, 1],
    ],
    excludes: [/\bfruit\b|\bwhen\b/],
    answer: () =>
      'Dig a hole 2-3 times as wide as the root ball but no deeper: the root flare should sit at or just above ground level. Loosen circling roots, backfill with the native soil (no amendments), water deeply and mulch 2-3 inches, keeping it off the trunk. Water weekly for the first 1-2 years. Fall and spring are best.',
  },
  {
    id: 'roses-care',
    topic: 'roses',
    match: [
      [/\broses?\b/, 3],
      [/\b(?:care|grow\w*|feed\w*|fertili[sz]\w*|bloom\w*)\b/, 2],
    ],
    requires: [/\broses?\b/],
    answer: () =>
      'Roses want 6+ hours of sun, rich well-drained soil and deep watering at the base once or twice a week. Feed in spring as leaves emerge and again after each flush of bloom, stopping 6 weeks before first frost. Mulch, deadhead to keep blooms coming, and prune in late winter.',
  },
  {
    id: 'bulbs-after-bloom',
    topic: 'bulbs',
    requires: [/\b(?:tulips?|daffodils?|bulbs?|hyacinths?|crocus\w*|alliums?)\b/],
    match: [
      [/\b(?:tulips?|daffodils?|bulbs?|hyacinths?|crocus\w*)\b/, 2],
      [
        /\b(?:after\s+(?:they\s+)?(?:bloom|flower)\w*|done\s+blooming|finished\s+blooming|foliage|leaves|cut\s+back)\b/,
        4,
      ],
    ],
    answer: () =>
      "After spring bulbs bloom, snip off the spent flower heads but leave the leaves until they yellow and flop, about 6 weeks: they are feeding next year's bloom. Do not braid or cut them early. Plant annuals around them to hide the fading foliage.",
  },
  {
    id: 'wildflowers',
    topic: 'native plants',
    match: [[/\b(?:wildflowers?|meadow|native\s+plants?|prairie)\b/, 4]],
    answer: (ctx) =>
      compose(
        MAX,
        'Sow wildflower seed in fall (or very early spring) on bare, weed-free soil: remove grass, rake lightly, mix the seed with sand and scatter it, then press it in; do not bury it. Water until sprouts appear. Expect mostly leaves the first year and a show in the second.',
        ctx.state ? 'Choose a mix native to your state.' : 'Choose a mix native to your region.',
      ),
  },
  {
    id: 'pollinators',
    topic: 'pollinators',
    match: [
      [/\b(?:pollinators?|bees?|butterfl(?:y|ies)|hummingbirds?|monarchs?)\b/, 4],
      [/\b(?:attract\w*|bring|more|help|garden)\b/, 2],
    ],
    answer: () =>
      'Plant flowers in clumps that bloom from spring to fall: early crocus and fruit trees, then salvia, catmint, bee balm, coneflower, milkweed and zinnias, and asters and goldenrod late. Add a shallow water dish with stones, leave some bare soil and hollow stems for native bees, and avoid pesticides on open flowers.',
  },
  {
    id: 'shade-plants',
    topic: 'sunlight',
    match: [
      [/\b(?:shade|shady|no\s+sun|low\s+light|north[\s-]facing)\b/, 4],
      [/\b(?:what|which|grow\w*|plant\w*)\b/, 1],
    ],
    excludes: [/\bgrass|lawn|seed\b/, HOUSEPLANT],
    answer: () =>
      "For shade: hostas, ferns, astilbe, heuchera, hellebores, bleeding heart, Solomon's seal, impatiens and begonias. Vegetables that cope with 3-4 hours of sun: lettuce, spinach, kale, chard, peas, parsley, mint and chives. Fruiting crops like tomatoes need 6-8 hours.",
  },
  {
    id: 'sun-requirements',
    topic: 'sunlight',
    match: [
      [
        /\b(?:how\s+(?:much|many\s+hours)\s+(?:of\s+)?(?:sun|sunlight|light)|hours?\s+of\s+(?:sun|sunlight|light|direct))\b/,
        5,
      ],
      [/\b(?:full\s+sun|sun)\b/, 2],
    ],
    excludes: [HOUSEPLANT],
    answer: () =>
      'Fruiting crops (tomatoes, peppers, squash, beans, corn, melons) need 6-8 or more hours of direct sun. Root crops manage with 5-6. Leafy greens and herbs like parsley, mint and cilantro get by on 3-4 hours, and in hot climates they prefer afternoon shade.',
  },
  {
    id: 'heat-wilting',
    topic: 'heat and drought',
    match: [
      [/\b(?:heat|hot|heat\s*wave|afternoon|scorch\w*|100\s*degrees|9\d\s*degrees)\b/, 3],
      [/\b(?:wilt\w*|droop\w*|limp|crispy|struggl\w*|dying)\b/, 3],
    ],
    requires: [/\b(?:wilt|droop|limp|crispy|struggl|dying|scorch)/],
    answer: () =>
      'Wilting in afternoon heat is often normal: plants droop to save water and perk up by evening. If they are still limp the next morning, water deeply. Water early in the day, mulch 2-3 inches and use 30-40% shade cloth in heat waves. Skip fertilizer while plants are heat-stressed.',
  },
  // ------------------------------------------------------------------ seeds and planning
  {
    id: 'leggy-seedlings',
    topic: 'seed starting',
    match: [
      [/\bseedlings?\b/, 2],
      [/\b(?:leggy|tall\s+and\s+(?:thin|floppy|skinny)|floppy|stretch\w*|spindly|falling\s+over)\b/, 4],
    ],
    requires: [/\b(?:leggy|floppy|stretch|spindly|tall|falling)/],
    answer: () =>
      'Leggy seedlings are stretching for light. Put grow lights 2-4 inches above them for 14-16 hours a day (a window is rarely enough), keep the room cooler (60-70F) and run a small fan or brush them daily for sturdy stems. Tomatoes can be replanted deeper to bury the stretch.',
  },
  {
    id: 'harden-off',
    topic: 'seed starting',
    match: [
      [/\bharden\w*\s+(?:off|them|seedlings)\b/, 6],
      [/\bseedlings?\b/, 1],
    ],
    answer: (ctx) =>
      compose(
        MAX,
        'Harden off over 7-10 days: start with 1-2 hours outside in shade and out of the wind, then add an hour or two and a bit more sun each day. Bring them in on cold nights (below 50F for warm crops). Water well and transplant on a cloudy day or late afternoon.',
        ctx.lastFrost
          ? `In zone ${ctx.zone}, start hardening off warm crops around ${formatDate(ctx.lastFrost)}.`
          : null,
      ),
  },
  {
    id: 'seed-starting-basics',
    topic: 'seed starting',
    match: [
      [/\b(?:start(?:ing)?\s+seeds?|seed\s+start\w*|germinat\w*|seeds?\s+indoors)\b/, 4],
      [/\bhow\b/, 1],
    ],
    answer: (ctx) =>
      compose(
        MAX,
        'Use fresh seed-starting mix in clean cells, sow 2-3 times as deep as the seed is wide, keep it moist under a dome, and give warm crops bottom heat (75-80F). Once they sprout, remove the dome and give 14-16 hours of light a few inches above. Feed at half strength after the first true leaves.',
        ctx.lastFrost
          ? `Your last frost is ~${formatDate(ctx.lastFrost)}: count back 6-8 weeks for tomatoes, 8-10 for peppers.`
          : null,
      ),
  },
  {
    id: 'transplant-shock',
    topic: 'transplanting',
    match: [
      [/\b(?:transplant\w*|after\s+planting|just\s+planted|repott?\w*)\b/, 3],
      [/\b(?:wilt\w*|droop\w*|shock|dying|yellow\w*|limp)\b/, 3],
    ],
    requires: [/\b(?:transplant|planting|planted|repot)/, /\b(?:wilt|droop|shock|dying|yellow|limp)/],
    answer: () =>
      'Some wilting after transplanting is shock while roots settle. Water deeply (not daily sips), give shade for a few afternoons, and skip fertilizer for 2 weeks. Most plants recover within a week. Next time harden them off first and transplant on a cloudy evening.',
  },
  {
    id: 'beginner-vegetables',
    topic: 'garden planning',
    match: [
      [
        /\b(?:easy|easiest|beginners?|first\s+(?:garden|time)|new\s+to\s+gardening|starting\s+out|start\s+a\s+garden)\b/,
        4,
      ],
      [/\b(?:vegetables?|veggies|grow|plant)\b/, 1],
    ],
    answer: (ctx) =>
      compose(
        MAX,
        'Easiest first crops: lettuce, radishes, bush beans, zucchini, cherry tomatoes (from plants), herbs like basil and mint (mint in a pot), and peas in spring. Start small: one 4x8 ft bed in 6-8 hours of sun, lots of compost, and regular watering. Grow what you love to eat!',
        ctx.lastFrost
          ? `In zone ${ctx.zone}, plant tomatoes, beans and zucchini after ~${formatDate(ctx.lastFrost)}.`
          : zipHint(ctx),
      ),
  },
  {
    id: 'containers-balcony',
    topic: 'containers',
    match: [
      [/\b(?:balcon(?:y|ies)|containers?|pots?|patio|apartment|small\s+space|deck)\b/, 3],
      [/\b(?:what|which|grow|plant|vegetables?|herbs)\b/, 2],
    ],
    requires: [/\b(?:what|which|grow|plant)/],
    excludes: [/\bwater/],
    answer: () =>
      'Good container picks: cherry tomatoes, peppers, bush beans, lettuce and other greens, herbs, strawberries and dwarf citrus. Use the biggest pots you can (5+ gallons for tomatoes) with drain holes and potting mix, not garden soil. Fruiting crops need 6+ hours of sun; greens and herbs take less. Water daily in summer.',
  },
  {
    id: 'indoor-vegetables',
    topic: 'indoor growing',
    match: [
      [/\b(?:indoors?|inside|windowsill|grow\s+lights?|apartment)\b/, 3],
      [/\b(?:vegetables?|veggies|food|lettuce|greens|herbs|grow)\b/, 2],
      [/\bwinter\b/, 1],
    ],
    requires: [/\b(?:indoors?|inside|windowsill|grow\s+lights?)\b/],
    excludes: [/\bseeds?\b.*\bstart|\bstart\b.*\bseeds?\b/, /\b(?:citrus|lemon|lime|orchid)\b/],
    answer: () =>
      'Yes, with enough light. A sunny south window handles herbs and microgreens; for lettuce, spinach, kale and green onions use LED grow lights 12-16 hours a day, 6-12 inches above the plants. Microgreens are the quickest win: ready in 10-14 days. Tomatoes and peppers indoors need strong lights.',
  },
  {
    id: 'hydroponics',
    topic: 'hydroponics',
    match: [[/\b(?:hydroponic\w*|aerogarden|kratky|deep\s+water\s+culture|nutrient\s+solution)\b/, 5]],
    answer: () =>
      'Easiest start: the Kratky method, a lidded tub of hydroponic nutrient solution with net pots, no pump needed; lettuce and herbs do great. Keep pH at 5.5-6.5, top up with plain water as plants drink, change the solution every 2-3 weeks, and give 14-16 hours of light indoors.',
  },
  {
    id: 'cover-crops',
    topic: 'cover crops',
    match: [
      [/\bcover\s+crops?\b/, 6],
      [/\b(?:green\s+manure|winter\s+rye|crimson\s+clover)\b/, 4],
    ],
    answer: (ctx) =>
      compose(
        MAX,
        'For winter: cereal rye (the hardiest; sow until a few weeks after first frost), crimson clover or hairy vetch (they add nitrogen; sow 4-6 weeks before frost), or oats (die in cold winters, easy to plant into). Cut or mow in spring 2-3 weeks before planting.',
        ctx.firstFrost
          ? `In zone ${ctx.zone}, sow clover or vetch by about ${formatDate(addDays(ctx.firstFrost, -35))}.`
          : null,
      ),
  },
  {
    id: 'fertilizer-general',
    topic: 'fertilizer',
    match: [
      [/\b(?:fertili[sz]\w*|plant\s+food|feed\w*)\b/, 3],
      [/\b(?:best|what|which|how\s+often|when)\b/, 1],
    ],
    requires: [/\b(?:fertili[sz]|plant\s+food|feed)/],
    excludes: [/\b(?:lawn|grass|turf)\b/, TOMATO, /\bnpk\b|\d+-\d+-\d+/],
    answer: () =>
      'Most gardens do well with 1-2 inches of compost each spring plus a balanced slow-release fertilizer at planting. Feed heavy feeders (tomatoes, corn, squash) again mid-season; go light on herbs. Houseplants: half-strength liquid fertilizer monthly in spring and summer only. A soil test shows what is actually missing.',
  },
  {
    id: 'npk',
    topic: 'fertilizer',
    match: [
      [/\bnpk\b|\bn-p-k\b|\b\d{1,2}-\d{1,2}-\d{1,2}\b/, 5],
      [/\b(?:mean|numbers?|what)\b/, 1],
    ],
    answer: () =>
      'N-P-K are the percentages of nitrogen, phosphorus and potassium: 10-10-10 is 10% of each. Nitrogen drives leafy growth, phosphorus roots and flowers, potassium overall health and fruit. Lawns and greens like more N; fruiting crops want more P and K once flowering. A soil test tells you which you need.',
  },
  {
    id: 'epsom-salt',
    topic: 'fertilizer',
    match: [[/\bepsom\s+salts?\b/, 6]],
    answer: () =>
      'Only if a soil test shows low magnesium, which is uncommon. Epsom salt does not prevent blossom end rot (that is calcium and uneven watering), and too much can block calcium uptake. For most gardens, compost and a balanced fertilizer do more.',
  },
  {
    id: 'yellow-leaves-general',
    topic: 'fertilizer',
    match: [
      [/\byellow\w*\b/, 3],
      [/\b(?:leaves|leaf|plants?)\b/, 1],
    ],
    requires: [/\byellow/],
    answer: () =>
      'Yellowing tells you a lot: old lower leaves yellowing = nitrogen shortage or normal aging (feed lightly); new leaves yellow with green veins = iron or high pH; whole plant yellow with wet soil = overwatering or poor drainage; yellow spots = disease. Which plant is it, and how often do you water?',
  },
  // ------------------------------------------------------------------ harvest and storage
  {
    id: 'harvest-potatoes',
    topic: 'harvesting',
    requires: [/\b(?:potato(?:e?s)?|spuds?)\b/, /\b(?:harvest|dig|ready|pick)/],
    match: [
      [/\b(?:potato(?:e?s)?|spuds?)\b/, 2],
      [/\b(?:harvest\w*|dig\w*|ready|pick\w*)\b/, 4],
    ],
    answer: () =>
      'For new potatoes, dig gently 2-3 weeks after the plants flower. For storage potatoes, wait until the tops die back, then leave them 2 more weeks to toughen the skins. Dig on a dry day, cure 1-2 weeks somewhere dark and airy at 50-60F, then store cool (about 40F) and dark.',
  },
  {
    id: 'harvest-melons',
    topic: 'harvesting',
    requires: [/\b(?:watermelons?|melons?|cantaloupes?|muskmelons?)\b/, /\b(?:ripe|ready|harvest|pick|when)/],
    match: [
      [/\b(?:watermelons?|melons?|cantaloupes?|muskmelons?)\b/, 2],
      [/\b(?:ripe|ready|harvest\w*|pick\w*|know\s+when)\b/, 4],
    ],
    answer: () =>
      'A ripe watermelon has a dried brown tendril nearest the fruit, a belly spot that has turned from white to creamy yellow, and dull rather than shiny skin; it sounds hollow when thumped. Cantaloupes are ready when they slip off the vine with a gentle push and smell sweet.',
  },
  {
    id: 'harvest-zucchini',
    topic: 'harvesting',
    requires: [/\b(?:zucchini|squash|cucumbers?)\b/, /\b(?:pick|harvest|big|size|ready)/],
    match: [
      [/\b(?:zucchini|squash|cucumbers?)\b/, 2],
      [/\b(?:pick\w*|harvest\w*|how\s+big|size|ready)\b/, 4],
    ],
    answer: () =>
      'Pick zucchini at 6-8 inches long (1-2 inches thick), checking every day or two in summer; they grow fast. Oversized ones turn seedy and slow the plant. Cut the stem with a knife rather than twisting. Cucumbers: pick at 6-8 inches for slicers, 2-4 inches for pickles.',
  },
  {
    id: 'cure-onions-garlic',
    topic: 'harvesting',
    requires: [/\b(?:onions?|garlic|shallots?)\b/, /\b(?:cur|stor|harvest|dry|ready|pull)/],
    match: [
      [/\b(?:onions?|garlic|shallots?)\b/, 2],
      [/\b(?:cur(?:e|ing)|stor(?:e|ing|age)|harvest\w*|dry\w*|ready|pull)\b/, 4],
    ],
    answer: (ctx) =>
      /\bgarlic\b/.test(ctx.question)
        ? 'Harvest garlic when the lower 3-4 leaves are brown but 5-6 upper ones are still green, usually early to mid summer. Dig, do not pull. Cure bundles in a shady, airy spot for 2-4 weeks, then trim roots and stems and store cool and dry. Save the biggest cloves to plant in fall.'
        : 'When half the onion tops flop over, stop watering; a week later pull them on a dry day. Cure 2-3 weeks in a warm, dry, airy, shady spot until the necks are tight and skins papery, then trim tops to 1 inch. Store cool, dry and dark in mesh bags; use thick-necked ones first.',
  },
  {
    id: 'harvest-tomatoes',
    topic: 'harvesting',
    requires: [TOMATO, /\b(?:pick|harvest|ripe|green|ready)/],
    match: [
      [TOMATO, 2],
      [/\b(?:pick\w*|harvest\w*|ripe\w*|green\s+tomato\w*|ready)\b/, 4],
    ],
    answer: () =>
      'Pick tomatoes at first blush (when color starts) and let them finish on the counter, stem up, out of direct sun: flavor is the same and you lose fewer to cracking and critters. Do not refrigerate them. Before the first frost, pick mature green ones; they ripen indoors in a paper bag.',
  },
  {
    id: 'watering-new-plants',
    topic: 'watering',
    match: [
      [/\bwater\w*/, 2],
      [
        /\b(?:new(?:ly)?\s+(?:planted\s+)?(?:trees?|shrubs?|plants?|perennials?)|just\s+planted|young\s+trees?)\b/,
        4,
      ],
    ],
    requires: [/\bwater/, /\b(?:new|newly|just\s+planted|young)\b/],
    excludes: [/\bsod\b|\bseed/],
    answer: () =>
      'New trees and shrubs: soak the root ball and the soil around it 2-3 times a week for the first month, then weekly (about 10 gallons per inch of trunk width) through the first 1-2 summers, more in heat. New perennials: every 2-3 days for 2 weeks, then weekly. Check the soil first; soggy roots rot.',
  },
  {
    id: 'fruit-tree-no-fruit',
    topic: 'fruit trees',
    match: [
      [/\b(?:apple|pear|peach|plum|cherry|fruit|fig|apricot)\s+trees?\b/, 3],
      [
        /\b(?:no|few|never|any|didn'?t|won'?t|doesn'?t)\b[^.?!]*\b(?:fruit|apples|pears|peaches|plums|cherries|figs|blossoms?|flowers?)\b/,
        4,
      ],
    ],
    requires: [
      /\b(?:apple|pear|peach|plum|cherry|fruit|fig|apricot)/,
      /\b(?:no|few|never|didn'?t|won'?t|doesn'?t|not)\b/,
    ],
    answer: () =>
      'A fruit tree with little fruit is usually too young (3-5 years to bear), missing a pollination partner (most apples, pears and sweet cherries need a second variety nearby), hit by a late frost at bloom, over-pruned, or over-fed with nitrogen. Many also bear heavily only every other year.',
  },
  {
    id: 'lawn-shade',
    topic: 'lawn',
    match: [
      [/\b(?:grass|lawn|turf|sod)\b/, 2],
      [/\b(?:shade|shady|under\s+trees?|no\s+sun)\b/, 4],
    ],
    requires: [/\b(?:grass|lawn|turf|sod)\b/, /\b(?:shade|shady|under\s+trees?|no\s+sun)\b/],
    excludes: [/\bmoss\b/],
    answer: (ctx) =>
      compose(
        MAX,
        lawnType(ctx) === 'warm'
          ? `In zone ${ctx.zone}, St. Augustine (Palmetto, Seville) and zoysia handle shade best among warm-season grasses.`
          : 'For shade, use fine fescues (creeping red, chewings, hard fescue) mixed with tall fescue; in the South, St. Augustine or zoysia.',
        'Grass still needs about 4 hours of sun: below that, use a shade ground cover (pachysandra, sweet woodruff, ajuga) or mulch. Mow shady grass taller (3.5-4 inches) and water less.',
      ),
  },
  {
    id: 'tomato-suckers',
    topic: 'pruning',
    match: [
      [TOMATO, 2],
      [/\b(?:suckers?|prun\w*|pinch\w*|trim\w*)\b/, 4],
    ],
    requires: [TOMATO, /\b(?:suckers?|prun|pinch|trim)/],
    answer: () =>
      'Suckers are the shoots between the main stem and a branch. On staked tall (indeterminate) tomatoes, pinch them off while under 4 inches for bigger, earlier fruit and better airflow; leave a few on caged plants. Barely prune bush (determinate) types. Remove leaves touching the soil.',
  },
  {
    id: 'ants',
    topic: 'pests',
    match: [[/\bants?\b/, 5]],
    answer: () =>
      'Ants in the garden are mostly harmless and even eat pests; crowds of ants on a plant usually mean they are farming aphids, so treat the aphids. For nests in beds, pour boiling water on the mound or set borax bait stations, which workers carry home. Keep baits away from pets.',
  },
  {
    id: 'cats-in-beds',
    topic: 'wildlife',
    match: [
      [/\bcats?\b/, 3],
      [/\b(?:poop\w*|dig\w*|litter|keep\s+out|out\s+of|using|beds?|garden)\b/, 2],
    ],
    requires: [/\bcats?\b/, /\b(?:poop|dig|litter|keep|out\s+of|using)/],
    answer: () =>
      'To keep cats out of beds: cover bare soil with mulch, pinecones or chicken wire laid flat (plants grow through it), push a grid of chopsticks or plastic forks into the soil, use a motion-activated sprinkler, and plant strong-scented rue at the edges. Never compost cat waste.',
  },
  {
    id: 'fall-cleanup',
    topic: 'overwintering',
    match: [
      [
        /\b(?:winteriz\w*|put\s+(?:the\s+|my\s+)?garden\s+to\s+bed|fall\s+clean\s*up|clean\s+up\s+the\s+garden|prepare\s+(?:the\s+|my\s+)?garden\s+for\s+winter|get\s+(?:the\s+|my\s+)?garden\s+ready\s+for\s+winter)\b/,
        5,
      ],
    ],
    answer: (ctx) =>
      compose(
        MAX,
        'To put the garden to bed: pull spent annuals and diseased plants (trash them), leave healthy perennial stems for bees and birds, spread 2-3 inches of compost or shredded leaves, plant garlic and bulbs, sow a cover crop and drain hoses. Mulch perennials once the ground freezes.',
        ctx.firstFrost ? `First frost in zone ${ctx.zone} is around ${formatDate(ctx.firstFrost)}.` : null,
      ),
  },
  {
    id: 'neem-oil',
    topic: 'pests',
    match: [
      [/\bneem\b/, 5],
      [/\b(?:safe|bees?|how|use|spray)\b/, 1],
    ],
    answer: () =>
      'Neem oil is low in toxicity and breaks down fast, but it can harm bees it lands on: spray at dusk, away from open flowers. Mix per the label (about 2 tsp cold-pressed neem and 1 tsp mild soap per quart), test a few leaves first, and skip spraying above 90F or in full sun.',
  },
  {
    id: 'holiday-cactus',
    topic: 'houseplants',
    match: [
      [/\b(?:christmas|thanksgiving|easter|holiday)\s+cact\w*\b/, 5],
      [/\bbloom\w*|flower\w*|buds?\b/, 1],
    ],
    answer: () =>
      'Holiday cacti bloom after long nights and cool temperatures: from mid-September give 6 weeks of 12-14 hours of darkness a night (a closet or unused room) and 50-60F nights, and water a bit less. Once buds form, keep it in bright light and do not move it, or the buds drop.',
  },
  {
    id: 'leaf-curl',
    topic: 'pests',
    match: [
      [/\bcurl\w*\b/, 3],
      [/\b(?:leaves|leaf)\b/, 1],
      [/\b(?:peppers?|cucumbers?|squash|zucchini|beans?|roses?|plants?)\b/, 1],
    ],
    requires: [/\bcurl/],
    excludes: [TOMATO, /\b(?:citrus|lemon|lime|orange)\b/],
    answer: () =>
      'Curling leaves: check the undersides first for aphids, mites or thrips (treat with insecticidal soap or neem). No bugs? Curling in heat or wind is usually water stress: water deeply and mulch. Twisted, cupped new growth after nearby spraying points to herbicide drift; it usually grows out.',
  },
  {
    id: 'flowers-for-sun',
    topic: 'flowers',
    match: [
      [/\b(?:flowers?|perennials?|annuals?|blooms?)\b/, 2],
      [/\b(?:full\s+sun|hot\s+sun|sunny|hot\s+(?:spot|bed|yard)|drought|heat)\b/, 3],
      [/\b(?:best|good|what|which|tough)\b/, 1],
    ],
    requires: [
      /\b(?:flowers?|perennials?|annuals?|blooms?)\b/,
      /\b(?:full\s+sun|hot\s+sun|sunny|hot|drought|heat)\b/,
    ],
    excludes: [/\b(?:wilt\w*|droop\w*|dying|scorch\w*)\b/],
    answer: () =>
      'Tough flowers for hot, full sun: zinnias, cosmos, marigolds, lantana, portulaca and salvia (annuals); coneflower, black-eyed Susan, lavender, catmint, sedum, yarrow, blanket flower and Russian sage (perennials). Most need little water once rooted and feed bees and butterflies.',
  },
];
