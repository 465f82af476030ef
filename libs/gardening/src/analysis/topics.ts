/** Every topic Sprout tags messages and conversations with (stable, display-ready ids). */
export const TOPICS = [
  'tomatoes',
  'peppers',
  'cucumbers',
  'squash',
  'pumpkins',
  'melons',
  'lettuce',
  'spinach',
  'kale',
  'broccoli',
  'cabbage',
  'cauliflower',
  'brussels sprouts',
  'carrots',
  'radishes',
  'beets',
  'onions',
  'garlic',
  'potatoes',
  'sweet potatoes',
  'beans',
  'peas',
  'corn',
  'eggplant',
  'asparagus',
  'rhubarb',
  'okra',
  'chard',
  'celery',
  'leeks',
  'turnips',
  'fruit trees',
  'citrus',
  'berries',
  'grapes',
  'herbs',
  'lawn',
  'houseplants',
  'succulents',
  'roses',
  'flowers',
  'bulbs',
  'trees and shrubs',
  'native plants',
  'pests',
  'wildlife',
  'diseases',
  'weeds',
  'watering',
  'soil',
  'compost',
  'fertilizer',
  'pruning',
  'mulch',
  'frost protection',
  'sunlight',
  'heat and drought',
  'planting schedule',
  'seed starting',
  'transplanting',
  'harvesting',
  'raised beds',
  'containers',
  'indoor growing',
  'hydroponics',
  'greenhouse',
  'cover crops',
  'pollination',
  'pollinators',
  'propagation',
  'overwintering',
  'companion planting',
  'crop rotation',
  'succession planting',
  'garden planning',
] as const;

/** A topic of the taxonomy. */
export type Topic = (typeof TOPICS)[number];

/** The group a topic belongs to. */
export type TopicCategory =
  'vegetable' | 'fruit' | 'plant type' | 'problem' | 'care' | 'technique' | 'timing';

/** A topic with its group and the pattern (over lower-cased text) that finds it. */
export interface TopicDefinition {
  topic: Topic;
  category: TopicCategory;
  pattern: RegExp;
}

const veg = (topic: Topic, pattern: RegExp): TopicDefinition => ({ topic, category: 'vegetable', pattern });

/** The taxonomy: one pattern per topic (and, for weeds, moss in a lawn: see lawnMossAt). */
export const TOPIC_TAXONOMY: readonly TopicDefinition[] = [
  veg('tomatoes', /\b(?:tomato(?:e?s)?|tomatos|tomatoe|maters?|cherry\s+toms?|tomatillos?)\b/),
  veg(
    'peppers',
    /\b(?:(?:bell\s+)?peppers?|jalape[nñ]os?|habaneros?|chil(?:e|i|li)(?:e?s)?|capsicums?|serranos?|poblanos?|cayenne|carolina\s+reapers?|ghost\s+peppers?)\b/,
  ),
  veg('cucumbers', /\b(?:cucumbers?|cukes?)\b/),
  veg(
    'squash',
    /\b(?:squash(?:es)?|zucchinis?|zukes?|courgettes?|pattypans?|butternut|acorn\s+squash|spaghetti\s+squash)\b/,
  ),
  veg('pumpkins', /\bpumpkins?\b/),
  veg('melons', /\b(?:melons?|watermelons?|cantaloupes?|muskmelons?|honeydews?)\b/),
  veg('lettuce', /\b(?:lettuces?|salad\s+greens|mesclun|arugula|romaine|leafy\s+greens)\b/),
  veg('spinach', /\bspinach\b/),
  veg('kale', /\bkale\b/),
  veg('broccoli', /\b(?:broccoli|broccolini)\b/),
  veg('cabbage', /\b(?:cabbages?|bok\s+choy|pak\s+choi|napa\s+cabbage|collards?|collard\s+greens)\b/),
  veg('cauliflower', /\bcauliflowers?\b/),
  veg('brussels sprouts', /\bbrussel+s?\s+sprouts?\b/),
  veg('carrots', /\bcarrots?\b/),
  veg('radishes', /\b(?:radish(?:es)?|daikon)\b/),
  veg('beets', /\b(?:beets?|beetroots?)\b/),
  veg('onions', /\b(?:onions?|scallions?|shallots?)\b/),
  veg('garlic', /\bgarlic\b/),
  veg('potatoes', /\b(?<!sweet\s)(?:potato(?:e?s)?|spuds?)\b/),
  veg('sweet potatoes', /\b(?:sweet\s*potato(?:e?s)?|yams?)\b/),
  veg('beans', /\b(?<!castor\s)(?<!coffee\s)(?<!jelly\s)(?:beans?|edamame)\b/),
  veg(
    'peas',
    /\b(?<!sweet\s)(?:peas|snap\s+peas?|snow\s+peas?|pea\s+(?:plants?|pods?|shoots?|vines?|seeds?))\b/,
  ),
  veg('corn', /\b(?:sweet\s*)?corn\b(?!\s*(?:gluten|meal|starch|snake|plant\b))/),
  veg('eggplant', /\b(?:eggplants?|aubergines?)\b/),
  veg('asparagus', /\basparagus\b/),
  veg('rhubarb', /\brhubarb\b/),
  veg('okra', /\bokra\b/),
  veg('chard', /\b(?:swiss\s+)?chard\b/),
  veg('celery', /\bcelery\b/),
  veg('leeks', /\bleeks?\b/),
  veg('turnips', /\b(?:turnips?|rutabagas?|parsnips?)\b/),
  {
    topic: 'fruit trees',
    category: 'fruit',
    pattern:
      /\b(?:fruit\s+trees?|orchards?|(?:apple|pear|peach|plum|cherry|apricot|nectarine|fig|persimmon|pawpaw|quince|mango|avocado|olive|pomegranate|mulberry|walnut|pecan|almond|chestnut)\s+trees?|apples?(?!\s+cider)|pears?|peach(?:es)?|plums?|apricots?|nectarines?|(?<!leaf\s|weeping\s|creeping\s)figs?|persimmons?|pawpaws?|quinces?|mangos?|mangoes|avocados?|pomegranates?|walnuts?|pecans?|hazelnuts?|filberts?|chestnuts?|macadamias?|cherr(?:y|ies)(?!\s+tom))\b/,
  },
  {
    topic: 'citrus',
    category: 'fruit',
    pattern:
      /\b(?:citrus|lemons?(?!\s+balm)|limes\b|(?:key|lime)\s+limes?|lime\s+trees?|oranges|orange\s+trees?|navel\s+oranges?|grapefruits?|mandarins?|tangerines?|kumquats?|satsumas?|clementines?|meyer\s+lemons?|limonero)\b/,
  },
  {
    topic: 'berries',
    category: 'fruit',
    pattern:
      /\b(?:berr(?:y|ies)|strawberr(?:y|ies)|blueberr(?:y|ies)|raspberr(?:y|ies)|blackberr(?:y|ies)|gooseberr(?:y|ies)|currants?|elderberr(?:y|ies)|honeyberr(?:y|ies)|haskaps?|lingonberr(?:y|ies)|cranberr(?:y|ies)|boysenberr(?:y|ies))\b/,
  },
  {
    topic: 'grapes',
    category: 'fruit',
    pattern: /\b(?:grapes?(?!\s+hyacinths?)|grapevines?|vineyards?|muscadines?)\b/,
  },
  {
    topic: 'herbs',
    category: 'plant type',
    pattern:
      /\b(?:herbs?|basil|cilantro|coriander|parsley|dill|mint|rosemary|thyme|oregano|(?<!texas\s|russian\s)sage|chives?|tarragon|lemongrass|marjoram|lavender|chamomile|fennel|stevia|lemon\s+balm|catnip)\b/,
  },
  {
    topic: 'lawn',
    category: 'plant type',
    pattern:
      /\b(?:lawns?|grass(?!hoppers?)|turf|sod|mow(?:ing|ed|er|ers)?|bermuda|zoysia|st\.?\s*augustine|fescue|bluegrass|ryegrass|overseed(?:ing)?|thatch|dethatch(?:ing)?|aerat(?:e|ing|ion)|crabgrass|yard\s+is)\b/,
  },
  {
    topic: 'houseplants',
    category: 'plant type',
    pattern:
      /\b(?:house\s*plants?|indoor\s+plants?|pothos|monsteras?|snake\s+plants?|sansevierias?|fiddle\s*leaf(?:\s+figs?)?|ficus|philodendrons?|peace\s+lil(?:y|ies)|spider\s+plants?|zz\s+plants?|orchids?|calatheas?|hoyas?|rubber\s+(?:plants?|trees?)|dracaenas?|crotons?|pileas?|alocasias?|christmas\s+cactus|peperomias?|bird\s+of\s+paradise|dieffenbachias?|parlor\s+palms?|anthuriums?|african\s+violets?|jade\s+plants?|string\s+of\s+pearls|prayer\s+plants?|chinese\s+evergreens?|aglaonemas?|money\s+trees?|pothos)\b/,
  },
  {
    topic: 'succulents',
    category: 'plant type',
    pattern:
      /\b(?:succulents?|cact(?:us|i|uses)|echeverias?|sedums?|haworthias?|jade(?:\s+plants?)?|aloes?(?:\s+vera)?|agaves?|hens\s+and\s+chicks|lithops|kalanchoes?|string\s+of\s+pearls)\b/,
  },
  {
    topic: 'roses',
    category: 'plant type',
    pattern: /\b(?:roses?(?!mary)|rosebush(?:es)?|knockout\s+roses?)\b/,
  },
  {
    topic: 'flowers',
    category: 'plant type',
    pattern:
      /\b(?:flowers?|flowering|blooms?|blooming|bloomed|annuals|perennials?|zinnias?|marigolds?|petunias?|sunflowers?|dahlias?|hydrangeas?|peon(?:y|ies)|irises|iris|daylil(?:y|ies)|lil(?:y|ies)|cosmos|geraniums?|impatiens|coneflowers?|echinacea|hostas?|asters?|mums|chrysanthemums?|snapdragons?|pans(?:y|ies)|salvias?|cockscombs?|celosias?|bleeding\s+hearts?|dicentra|clematis|wisterias?|hibiscus|gardenias?|camellias?|azaleas?|rhododendrons?|foxgloves?|lupines?|popp(?:y|ies)|nasturtiums?|sweet\s+peas?|begonias?|calendulas?|violas?|verbenas?|lantanas?|bougainvilleas?|delphiniums?|hollyhocks?|phlox|rudbeckias?|black[\s-]eyed\s+susans?|coreopsis|gaillardias?|yarrow|columbines?|astilbes?|hellebores?|coleus|fuchsias?|lobelias?|alyssum|ageratum|vincas?|periwinkles?|morning\s+glor(?:y|ies)|moonflowers?)\b/,
  },
  {
    topic: 'bulbs',
    category: 'plant type',
    pattern:
      /\b(?:bulbs?|tulips?|daffodils?|crocus(?:es)?|hyacinths?|alliums?|gladiol(?:i|us)|glads|amaryllis|snowdrops?|cannas?|calla\s+lil(?:y|ies)|narcissus|freesias?|dahlia\s+tubers?|tubers?|corms?)\b/,
  },
  {
    topic: 'trees and shrubs',
    category: 'plant type',
    pattern:
      /\b(?:trees?|shrubs?|bush(?:es)?|hedges?|boxwoods?|maples?|acer|oaks?|pines?|spruces?|junipers?|arborvitaes?|birch(?:es)?|dogwoods?|redbuds?|magnolias?|holl(?:y|ies)|willows?|elms?|ash\s+trees?|cedars?|cr[ae]pe\s+myrtles?|lilacs?|forsythias?|burning\s+bush(?:es)?|privets?|laurels?|viburnums?|spireas?|butterfly\s+bush(?:es)?|evergreens?|palms?|sagos?|yews?|hemlocks?|cypress(?:es)?|sycamores?|cottonwoods?|poplars?|locusts?|ginkgos?|firs?|hydrangeas?|saplings?)\b/,
  },
  {
    topic: 'native plants',
    category: 'plant type',
    pattern: /\b(?:native\s+plants?|natives|wildflowers?|meadows?|prairie\s+plants?|pollinator\s+garden)\b/,
  },
  {
    topic: 'pests',
    category: 'problem',
    pattern:
      /\b(?:pests?|bugs?|insects?|aphids?|slugs?|snails?|(?:spider\s+)?mites?|whitefl(?:y|ies)|white\s+flies|fungus\s+gnats?|gnats?|thrips|mealybugs?|scale\s+insects?|caterpillars?|(?:horn|cabbage|cut|army|web|tomato|bag|ear|corn\s*ear)worms?|grubs?|beetles?|squash\s+bugs?|stink\s*bugs?|borers?|weevils?|ants?|earwigs?|leaf\s*miners?|nematodes?|sawfl(?:y|ies)|wasps?|yellow\s*jackets?|fleas?|ticks?|fruit\s+flies|flies|larvae|maggots?|infest(?:ed|ation)?|holes\s+in\s+(?:the\s+|my\s+)?(?:leaves|leaf)|skeletoniz\w*|chew(?:ed|ing)\s+(?:up\s+)?(?:leaves|holes)|(?:something|what'?s|whats|what\s+is)\s+(?:is\s+)?(?:eating|chewing|killing))\b/,
  },
  {
    topic: 'wildlife',
    category: 'problem',
    pattern:
      /\b(?:deer|rabbits?|bunn(?:y|ies)|squirrels?|chipmunks?|gophers?|moles?|voles?|groundhogs?|woodchucks?|raccoons?|(?:o)?possums?|skunks?|armadillos?|birds?|crows?|javelinas?|mice|rats?)\b/,
  },
  {
    topic: 'diseases',
    category: 'problem',
    pattern:
      /\b(?:diseases?|diseased|blight|(?:powdery|downy)\s+mildew|mildew|white\s+powder|powdery|mold|mould|moldy|fung(?:us|al|i)(?!\s+gnats?)|rot|rotting|rotten|root\s+rot|blossom\s+end|leaf\s+spots?|black\s+spots?|brown\s+spots?|yellow\s+spots?|spots?|spotted|rust|fusarium|verticillium|mosaic|cankers?|scab|fire\s*blight|anthracnose|bacterial|viral|virus|clubroot|damping\s+off|sooty\s+mold|brown\s+patch(?:es)?|dollar\s+spot|lesions?|galls?|turning\s+black|black\s+(?:leaves|stems?))\b/,
  },
  {
    topic: 'weeds',
    category: 'problem',
    pattern:
      /\b(?:weeds?|weeding|weedy|dandelions?|crabgrass|clover|bindweed|poison\s+(?:ivy|oak|sumac)|thistles?|nutsedge|nut\s*grass|creeping\s+charlie|ground\s+ivy|purslane|quack\s?grass|knotweed|horsetail|wild\s+violets?|chickweed|spurge|buttercups?|invasive|herbicides?|weed\s*killers?|roundup|glyphosate|pre-?emergents?)\b/,
  },
  {
    topic: 'watering',
    category: 'care',
    pattern:
      /\b(?:water(?:ing|ed|s)?|irrigat\w*|sprinklers?|overwater\w*|over-water\w*|underwater\w*|soaker\s+hoses?|hoses?|drip\s+(?:line|system|irrigation)|soggy|waterlogged|dry\s+soil|moisture|rain\s+barrels?)\b/,
  },
  {
    topic: 'soil',
    category: 'care',
    pattern:
      /\b(?:soil|soils|dirt|clay|sandy|loam|loamy|ph|acidic|alkaline|soil\s+tests?|amend(?:ment|ments|ing)?|potting\s+mix|peat(?:\s+moss)?|perlite|vermiculite|drainage|compacted|topsoil|gypsum|lime(?!\s+trees?)|sulfur|sulphur|coir|coco\s+coir)\b/,
  },
  {
    topic: 'compost',
    category: 'care',
    pattern:
      /\b(?:compost(?:ing|ed|er|s)?|vermicompost\w*|worm\s+(?:bin|farm|castings)|coffee\s+grounds|kitchen\s+scraps|food\s+scraps|leaf\s+mold|manure|bokashi|tumblers?|greens\s+and\s+browns)\b/,
  },
  {
    topic: 'fertilizer',
    category: 'care',
    pattern:
      /\b(?:fertili[sz](?:e|er|ers|ing|ed)|plant\s+food|feed(?:ing)?(?!\s+(?:the\s+)?birds?)|npk|nitrogen|phosphorus|potassium|potash|miracle[\s-]?gro|epsom\s+salts?|bone\s+meal|blood\s+meal|fish\s+emulsion|calcium|magnesium|nutrients?|deficien\w*|chlorosis|\d{1,2}-\d{1,2}-\d{1,2}|slow[\s-]release|urea|osmocote)\b/,
  },
  {
    topic: 'pruning',
    category: 'care',
    pattern:
      /\b(?:prun(?:e|ed|es|ing)|trim(?:ming|med|s)?|cut(?:ting)?\s+(?:it\s+|them\s+)?back|deadhead(?:ing|ed)?|pinch(?:ing)?\s+(?:off|back)|suckers?|loppers?|shears|espalier|thin(?:ning)?\s+out|shape\s+(?:a|my|the)\s+\w+)\b/,
  },
  {
    topic: 'mulch',
    category: 'care',
    pattern:
      /\b(?:mulch(?:ing|ed|es)?|wood\s+chips?|straw|pine\s+straw|bark\s+(?:chips|nuggets|mulch)|landscape\s+fabric|weed\s+barrier)\b/,
  },
  {
    topic: 'frost protection',
    category: 'care',
    pattern:
      /\b(?:frost(?:s|y|ed|bite)?|freez(?:e|es|ing)|froze|frozen|cold\s+snap|frost\s+cloth|row\s+covers?|cloches?|winter\s+protection|winteriz\w*|hard\s+freeze|below\s+freezing|cold\s+damage)\b/,
  },
  {
    topic: 'sunlight',
    category: 'care',
    pattern:
      /\b(?:sun(?:light|shine)?|full\s+sun|part(?:ial)?\s+(?:sun|shade)|shade|shady|hours?\s+of\s+(?:sun|light|direct)|light(?!\s+(?:green|brown|yellow))|bright\s+indirect|(?:north|south|east|west)[\s-]facing|sunburn(?:ed|t)?|low\s+light)\b/,
  },
  {
    topic: 'heat and drought',
    category: 'care',
    pattern:
      /\b(?:heat(?:wave)?|hot|heat\s+wave|(?:9\d|1[01]\d)\s*(?:degrees|°|f\b)|drought|scorch(?:ed|ing)?|sun\s*scald|wilt(?:s|ing|ed)?\s+(?:in|every|during)\s+(?:the\s+)?(?:afternoon|heat|day)|dry\s+spell|xeriscap\w*)\b/,
  },
  {
    topic: 'planting schedule',
    category: 'timing',
    pattern:
      /\b(?:when\s+(?:should|do|can|to|is|would|will)\b[^.?!]{0,120}?\b(?:plant|sow|seed|start|transplant|put\s+(?:out|in)|set\s+out|grow)|(?:best|right|good|ideal)\s+time\s+(?:to|for)\s+(?:plant|sow|start|seed|transplant|put)|too\s+(?:late|early)\s+(?:to|for)|planting\s+(?:time|date|dates|calendar|schedule|window|season)|what\s+(?:can|should|to)\s+(?:i\s+)?(?:plant|sow|grow)\s+(?:now|in\s+(?:the\s+)?\w+|this)|when\s+to\s+(?:plant|sow|start|seed|transplant)|last\s+frost|first\s+frost|frost\s+dates?|is\s+it\s+time\s+to)\b/,
  },
  {
    topic: 'seed starting',
    category: 'technique',
    pattern:
      /\b(?:seeds?|seedlings?|start(?:ing)?\s+seeds|seed\s+start\w*|germinat\w*|sprout(?:ing|ed)?|leggy|harden(?:ing)?\s+off|grow\s+lights?|heat\s+mats?|seed\s+trays?|sow(?:ing|n)?|direct\s+sow\w*|start\s+(?:them\s+)?indoors)\b/,
  },
  {
    topic: 'transplanting',
    category: 'technique',
    pattern:
      /\b(?:transplant(?:s|ing|ed)?|harden(?:ing)?\s+off|repot(?:ting|ted)?|re-pot\w*|moving\s+(?:a|my|the)\s+\w+|plant\s+(?:them\s+)?out|set\s+out)\b/,
  },
  {
    topic: 'harvesting',
    category: 'technique',
    pattern:
      /\b(?:harvest(?:ing|ed|s)?|pick(?:ing|ed)?|ripe(?:n|ning|ns|ned)?|ready\s+to\s+(?:pick|eat|harvest)|cur(?:e|ing)\s+(?:onions|garlic|potatoes|sweet\s+potatoes|squash)|stor(?:e|ing|age)\s+(?:my\s+)?(?:onions|garlic|potatoes|squash|apples|carrots|harvest))\b/,
  },
  {
    topic: 'raised beds',
    category: 'technique',
    pattern:
      /\b(?:raised\s+(?:garden\s+)?beds?|garden\s+beds?|bed\s+(?:frame|kit)|hugelkultur|square\s+foot\s+garden\w*|raised\s+planters?)\b/,
  },
  {
    topic: 'containers',
    category: 'technique',
    pattern:
      /\b(?:containers?|pots?|potted|planters?|grow\s+bags?|balcon(?:y|ies)|patio|window\s+box(?:es)?|buckets?|hanging\s+baskets?|half\s+barrels?|container\s+garden\w*)\b/,
  },
  {
    topic: 'indoor growing',
    category: 'technique',
    pattern:
      /\b(?:indoors?|inside\s+(?:the\s+house|my\s+house|my\s+apartment)|grow\s+lights?|windowsills?|aerogarden|microgreens|grow\s+tents?)\b/,
  },
  {
    topic: 'hydroponics',
    category: 'technique',
    pattern:
      /\b(?:hydroponic\w*|aquaponic\w*|deep\s+water\s+culture|nutrient\s+solution|kratky|nft\s+system)\b/,
  },
  {
    topic: 'greenhouse',
    category: 'technique',
    pattern: /\b(?:greenhouses?|hoop\s*houses?|polytunnels?|high\s+tunnels?|cold\s+frames?)\b/,
  },
  {
    topic: 'cover crops',
    category: 'technique',
    pattern:
      /\b(?:cover\s+crops?|green\s+manure|crimson\s+clover|winter\s+rye|cereal\s+rye|buckwheat|hairy\s+vetch|field\s+peas)\b/,
  },
  {
    topic: 'pollination',
    category: 'technique',
    pattern:
      /\b(?:pollinat(?:e|es|ion|ing|ed)|hand[\s-]pollinat\w*|(?:flowers?|blossoms?|blooms?)\s+(?:are\s+|keep\s+)?(?:falling|fall|drop(?:ping)?)\s*(?:off)?|blossom\s+drop|no\s+(?:fruit|tomatoes|peppers|squash|cucumbers|zucchini|melons)|not\s+(?:fruiting|setting\s+fruit|producing)|(?:male|female)\s+flowers?|fruit\s+set|flowering\s+but)\b/,
  },
  {
    topic: 'pollinators',
    category: 'technique',
    pattern:
      /\b(?:pollinators?|bees?|bumblebees?|honeybees?|butterfl(?:y|ies)|hummingbirds?|monarchs?|milkweed|bee[\s-]friendly)\b/,
  },
  {
    topic: 'propagation',
    category: 'technique',
    pattern:
      /\b(?:propagat\w*|cuttings?|rooting\s+hormone|root\s+(?:a|the)\s+cutting|divid(?:e|ing)\s+(?:my\s+|the\s+)?\w+|division|layering|graft(?:ing|ed)?|sav(?:e|ing)\s+seeds?|seed\s+saving|cloning|offsets|pups)\b/,
  },
  {
    topic: 'overwintering',
    category: 'technique',
    pattern:
      /\b(?:overwinter(?:ing|ed)?|over-winter\w*|bring\s+(?:them|it|my\s+\w+)\s+(?:inside|indoors|in)\s+for\s+(?:the\s+)?winter|winter\s+(?:storage|care)|store\s+(?:bulbs|tubers|dahlias|cannas)|dormancy|dormant|survive\s+(?:the\s+)?winter|through\s+the\s+winter)\b/,
  },
  {
    topic: 'companion planting',
    category: 'technique',
    pattern:
      /\b(?:companion\s+plant\w*|companions?|plant(?:ed)?\s+(?:next\s+to|near|beside|alongside)|grow\s+(?:well\s+)?(?:together|next\s+to)|good\s+neighbou?rs|three\s+sisters)\b/,
  },
  {
    topic: 'crop rotation',
    category: 'technique',
    pattern:
      /\b(?:crop\s+rotation|rotat(?:e|ing)\s+(?:my\s+)?crops|same\s+(?:spot|place|bed|location|area)\s+(?:every|each)\s+year|same\s+(?:spot|place|bed)\s+(?:as\s+)?last\s+year)\b/,
  },
  {
    topic: 'succession planting',
    category: 'timing',
    pattern:
      /\b(?:succession\s+(?:plant\w*|sow\w*|crops?)|(?:sow|plant)\w*\s+(?:again\s+)?every\s+(?:\d+|two|three|few)\s+weeks|staggered\s+(?:plantings?|sowings?)|(?:steady|continuous)\s+(?:harvest|supply)|(?:second|another)\s+(?:crop|planting|round)|relay\s+plant\w*)\b/,
  },
  {
    topic: 'garden planning',
    category: 'timing',
    pattern:
      /\b(?:plan(?:ning)?\s+(?:a|my|the|our)\s+(?:vegetable\s+)?garden|garden\s+(?:plan|layout|design)|easiest|easy\s+(?:to\s+grow|vegetables|veggies|plants|crops)|first\s+(?:garden|vegetable\s+garden)|start(?:ing)?\s+a\s+(?:vegetable\s+)?garden|new\s+garden|garden\s+layout|spacing|how\s+far\s+apart|what\s+(?:should|can)\s+i\s+(?:grow|plant)(?!\s+(?:now|in|this)))\b/,
  },
];

/**
 * Where "moss" is a lawn weed: "moss" in a message that names a lawn, grass or yard anywhere, or
 * -1. Two scans rather than a lookaround over the rest of the text at every position, which
 * made a long text take quadratic time.
 */
const lawnMossAt = (lower: string): number => {
  const moss = /\bmoss\b/.exec(lower);
  return moss !== null && /\b(?:lawn|grass|yard)\b/.test(lower) ? moss.index : -1;
};

/**
 * The taxonomy topics a message touches, in the order they first appear in it (at most `max`,
 * default all). Plant names, problems (pests, diseases, weeds), care (watering, soil, pruning...),
 * techniques and timing are all recognised, in any case.
 */
export function detectTopics(text: string, max = Infinity): Topic[] {
  const lower = text.toLowerCase();
  const found: Array<{ topic: Topic; at: number }> = [];
  for (const { topic, pattern } of TOPIC_TAXONOMY) {
    const at = pattern.exec(lower)?.index ?? -1;
    const moss = topic === 'weeds' ? lawnMossAt(lower) : -1;
    const first = at < 0 ? moss : moss < 0 ? at : Math.min(at, moss);
    if (first >= 0) found.push({ topic, at: first });
  }
  found.sort((a, b) => a.at - b.at);
  return found.slice(0, max).map((f) => f.topic);
}

/** The category a topic belongs to. */
export function topicCategory(topic: Topic): TopicCategory {
  return TOPIC_TAXONOMY.find((t) => t.topic === topic)?.category ?? 'technique';
}
