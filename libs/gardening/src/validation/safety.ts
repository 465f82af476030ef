/** What kind of danger a message describes. */
export type SafetyCategory =
  | 'self_harm'
  | 'harm_to_others'
  | 'human_poisoning'
  | 'pet_poisoning'
  | 'chemical_exposure'
  | 'pesticide_misuse'
  | 'mushroom_identification';

/** A safety concern found in a message, with the guidance to send instead of any advice. */
export interface SafetyConcern {
  category: SafetyCategory;
  /** Short description for the validation issue. */
  description: string;
  /** The SMS to send (GSM-7, at most 320 characters). */
  guidance: string;
}

/** US Poison Control (24/7, free). */
export const POISON_CONTROL_NUMBER = '1-800-222-1222';

/** The guidance text for each category (GSM-7, at most 320 characters each). */
export const SAFETY_GUIDANCE: Readonly<Record<SafetyCategory, string>> = {
  self_harm:
    "I'm so sorry you're feeling this way. You don't have to face it alone: call or text 988 (Suicide & Crisis Lifeline) any time. If you are in danger now, call 911. If you swallowed a plant or chemical, call Poison Control at 1-800-222-1222.",
  harm_to_others:
    "I can't help with that. If anyone may have been poisoned, call Poison Control at 1-800-222-1222 right away, or 911 in an emergency.",
  human_poisoning:
    "Call Poison Control now at 1-800-222-1222 (free, 24/7). If they have trouble breathing, a seizure, or won't wake up, call 911. Don't make them vomit unless told to. Keep a piece of the plant or the product label to describe it.",
  pet_poisoning:
    'Call your vet or an animal poison line now: ASPCA 888-426-4435 or Pet Poison Helpline 855-764-7661. If a person may be affected too, call Poison Control at 1-800-222-1222, or 911 in an emergency. Keep a piece of the plant or the label.',
  chemical_exposure:
    'Rinse skin or eyes with clean running water for 15-20 min and take off soaked clothing. Call Poison Control at 1-800-222-1222 with the product label in hand. If breathing is hard or symptoms are severe, call 911.',
  pesticide_misuse:
    "Please don't: mixing chemicals (bleach with ammonia or vinegar makes toxic gas) or using a product beyond its label can hurt people and pets. Follow the label exactly. Questions about exposure: Poison Control 1-800-222-1222; 911 in an emergency.",
  mushroom_identification:
    'Never eat a wild mushroom based on a photo or text ID: deadly ones look like edible ones. If anyone (or a pet) ate one, call Poison Control at 1-800-222-1222 now, or 911 if they are very ill. Keep a sample in a paper bag for identification.',
};

const SELF_HARM =
  /\b(?:kill(?:ing)?\s+my\s*self|suicid\w*|end\s+(?:my\s+(?:own\s+)?life|it\s+all)|(?:want|wanna|going)\s+to\s+die|wanna\s+die|(?:don'?t|do\s+not|dont)\s+want\s+to\s+(?:live|be\s+alive|be\s+here|wake\s+up)|hurt(?:ing)?\s+my\s*self|harm(?:ing)?\s+my\s*self|self[\s-]?harm|overdos\w*|better\s+off\s+dead|no\s+reason\s+to\s+live|take\s+my\s+(?:own\s+)?life|poison\s+my\s*self)\b/;
/**
 * A sentence that asks whether a plant will die ("is my ash tree going to die?"): it opens the
 * sentence with is/are/will and a thing, and no first person comes between. Only such a question is
 * set aside before looking for self-harm; "this is it im going to die" still is one.
 */
const PLANT_GOING_TO_DIE =
  /(?:^|[.?!;]\s*)(?:is|are|will)\s+(?:my|the|this|that|these|those|our|it|they)\s+(?:(?!(?:i|im|i'm|am|me|we)\b)[\w'-]+\s+){0,3}going\s+to\s+die\b/g;

const HARM_TO_OTHERS: readonly RegExp[] = [
  /\bpoison(?:ing)?\s+(?:someone|somebody|a\s+person|people|him|her|them|my\s+(?:neighbou?r|husband|wife|boss|ex|roommate|partner|mother[\s-]in[\s-]law)|(?:my\s+)?neighbou?r'?s?(?:\s+\w+)?)\b/,
  /\b(?:to|would|could|enough\s+to)\s+(?:kill|poison)\s+(?:someone|somebody|a\s+person|a\s+human|people|an?\s+adult|a\s+child|a\s+dog|a\s+cat|him|her)\b/,
  /\b(?:kill|hurt|harm|poison)\s+(?:my\s+)?neighbou?r'?s?\s+(?:dog|cat|kids?|children|pets?|horse)\b/,
  /\bhow\s+much\b[^.?!]{0,160}\b(?:to|would|could)\s+(?:kill|poison)\b(?![^.?!]{0,160}\b(?:weeds?|bugs?|aphids?|slugs?|ants?|grubs?|pests?|moss|grass|roots?|stumps?)\b)/,
];

const PEOPLE = String.raw`(?:i|me|we|my\s+\d+\s*(?:yo|y\/o|year[\s-]old|yr[\s-]old|month[\s-]old|mo[\s-]old)|(?:grandpa|grandma|granny|mom|dad|husband|wife|toddler|baby|son|daughter)|my\s+(?:little\s+|baby\s+|\d+\s*(?:yo|year\s+old|yr\s+old)\s+)?(?:son|daughter|kid|kids|child|children|baby|toddler|infant|boy|girl|grandson|granddaughter|grandkid|grandkids|husband|wife|partner|mom|mother|dad|father|grandma|grandpa|friend|brother|sister|niece|nephew)|(?:a|the|our)\s+(?:kid|kids|child|children|baby|toddler|infant)|kid|kids|child|baby|toddler|someone|somebody|he|she|they)`;
const PETS = String.raw`(?:(?:my|our|the|a)\s+(?:\w+\s+)?(?:dog|dogs|doggo|puppy|puppies|pup|pups|lab|labrador|retriever|golden|beagle|shepherd|husky|terrier|poodle|corgi|chihuahua|dachshund|boxer|pug|pitbull|pittie|cat|cats|kitten|kittens|kitty|pet|pets|horse|horses|pony|goat|goats|parrot|cockatiel|guinea\s+pig|hamster|tortoise|sheep|cow|cows|alpaca|llama)|dog|cat|puppy|kitten)`;
const INGEST = String.raw`(?:ate|eaten|eats|eat|eating|chewed|chewing|chews|chew|swallowed|swallow|swallowing|licked|licking|lick|drank|drink|drinking|ingested|consumed|nibbled|nibbling|munched|bit\s+into|tasted|got\s+into)`;

const RISKY_THINGS =
  /\b(?:mushrooms?|toadstools?|fung(?:us|i)|wild\s+\w+|berr(?:y|ies)|bulbs?|seeds?|seed\s+pods?|pods|leaf|leaves|flowers?|sap|roots?|fertili[sz]er\w*|pesticides?|insecticides?|herbicides?|fungicides?|weed\s*killers?|bug\s+spray|roundup|sevin|malathion|slug\s+(?:bait|pellets)|snail\s+bait|rat\s+poison|poison|pellets|granules|plants?|houseplants?|blood\s+meal|bone\s+meal|fish\s+emulsion|mulch|grapes?|raisins?|onions?|garlic|avocado|antifreeze|compost|cocoa\s+mulch|foxglove|oleander|yew|castor|nightshade|hemlock|lil(?:y|ies)|sago|daffodils?|azaleas?|rhododendrons?|dieffenbachia|jimson\w*|datura|pokeweed|pokeberr\w*|monkshood|larkspur|lily\s+of\s+the\s+valley|wisteria|rhubarb\s+leaves|tulips?|hyacinths?|philodendron|pothos|aloe|ivy|holly|mistletoe|poinsettia|lantana|hydrangea|boxwood|privet|laburnum|belladonna|elderberr\w*|potato\s+leaves|tomato\s+leaves|green\s+potato|apple\s+seeds|cherry\s+pits|peach\s+pits)\b/;
/** Animals and pests that eat plants. */
const EATERS = String.raw`(?:deer|rabbits?|bunn(?:y|ies)|squirrels?|voles?|gophers?|moles?|chipmunks?|birds?|slugs?|snails?|bugs?|beetles?|caterpillars?|worms?|something|critters?|groundhogs?|woodchucks?|raccoons?|mice|rats?|chickens?|hens|aphids?|grasshoppers?|insects?|pests?|hornworms?|possums?|armadillos?|javelinas?|elk|moose|bears?)`;
const PEST_SUBJECT = new RegExp(String.raw`\b${EATERS}\s+(?:\w+\s+){0,2}$`);
/** "keep birds from eating my grass seed": the animal eats, whoever speaks. */
const ANIMAL_EATING = new RegExp(
  String.raw`\b${EATERS}\s+(?:(?:from|keep|keeps|kept|are|is|were|was|have|has|had|been|always|still|just)\s+){0,2}${INGEST}\b`,
  'g',
);
/** In a message about browsing animals and no person, "they" are the animals ("what bulbs dont they eat"). */
const NAMES_BROWSER =
  /\b(?:deer|rabbits?|bunn(?:y|ies)|squirrels?|voles?|gophers?|chipmunks?|groundhogs?|woodchucks?|raccoons?|javelinas?|armadillos?|elk|moose)\b/;
const NAMES_PERSON =
  /\b(?:i|we|he|she|hes|shes|someone|somebody|anyone|people|person|guests?|visitors?|neighbou?rs?|son|daughter|kids?|child|children|baby|toddler|infant|boy|girl|grand\w+|husband|wife|partner|mom|mother|dad|father|friends?|brother|sister|niece|nephew|uncle|aunt|cousin|in-laws?)\b/;
/** Symptoms of a person's body. */
const BODILY_SYMPTOMS =
  /\b(?:sick|ill|vomit\w*|throw(?:ing)?\s+up|threw\s+up|puk\w*|nause\w*|dizzy|dizziness|faint\w*|seizure\w*|convuls\w*|drool\w*|foaming|letharg\w*|unconscious|won'?t\s+wake|can'?t\s+breathe|trouble\s+breathing|short(?:ness)?\s+of\s+breath|wheez\w*|cough\w*|rash|hives|blister\w*|burn(?:s|ing|ed)?|itch\w*|swell\w*|swollen|numb\w*|tingl\w*|diarrh\w*|stomach\s*ache|cramps?|headache|hospital|emergency|er\b)\b/;
/** ...or words of alarm, which also count when someone swallowed something. */
const SYMPTOMS = new RegExp(
  String.raw`${BODILY_SYMPTOMS.source}|\b(?:poison(?:ed|ing|ous)?|toxic|overdose|what\s+(?:do|should)\s+i\s+do|help)\b`,
);
const CHEMICALS =
  /\b(?:pesticides?|insecticides?|herbicides?|fungicides?|weed\s*killers?|bug\s+spray|roundup|glyphosate|sevin|carbaryl|malathion|diazinon|chlordane|paraquat|2,4-d|permethrin|bifenthrin|imidacloprid|neem\s+oil|copper\s+(?:spray|fungicide)|sulfur(?:\s+dust)?|sulphur|lime\s+sulfur|fertili[sz]ers?|bleach|ammonia|chlorine|chemicals?|poison|dust|spray)\b/;
const BODY_CONTACT =
  /\b(?:in\s+(?:my|his|her|their|your)\s+(?:eyes?|mouth|nose|face)|on\s+(?:my|his|her|their)\s+(?:skin|hands?|arms?|face|legs?|body)|all\s+over\s+(?:my|his|her|their|me|him)|(?:my|his|her)\s+(?:eyes?|skin|hands?|arms?|face|throat|lungs)|inhal\w*|breath(?:ed|ing)\s+(?:in|it|the)|fumes|without\s+(?:a\s+)?(?:mask|gloves|respirator))\b/;
const MISUSE: readonly RegExp[] = [
  /\bmix(?:ing|ed)?\b[^.?!]{0,160}\b(?:bleach|ammonia|chlorine)\b[^.?!]{0,160}\b(?:and|with)\b[^.?!]{0,160}\b(?:bleach|ammonia|vinegar|chlorine|acid|pesticides?|weed\s*killers?|roundup)\b/,
  /\b(?:bleach|ammonia)\s+(?:and|with|\+)\s+(?:ammonia|bleach|vinegar)\b/,
  /\b(?:malathion|sevin|carbaryl|diazinon|chlordane|bifenthrin|permethrin|roundup|glyphosate|paraquat|(?:outdoor\s+)?(?:insecticide|pesticide|herbicide|weed\s*killer))\b[^.?!]{0,160}\b(?:inside|indoors|in\s+(?:the|my|our)\s+(?:house|home|bedroom|kitchen|apartment))\b/,
  /\b(?:inside|indoors|in\s+(?:the|my|our)\s+(?:house|home|bedroom|kitchen))\b[^.?!]{0,160}\b(?:malathion|sevin|carbaryl|diazinon|chlordane|bifenthrin|roundup|paraquat)\b/,
  /\b(?:double|triple|twice|more\s+than\s+(?:the\s+)?label|stronger\s+than\s+(?:the\s+)?label|extra\s+strong)\b[^.?!]{0,160}\b(?:pesticides?|insecticides?|herbicides?|roundup|weed\s*killers?|concentrate|malathion|sevin)\b/,
  /\b(?:spray|put|use)\s+(?:\w+\s+){0,3}(?:pesticide|insecticide|roundup|weed\s*killer|poison)\s+(?:\w+\s+){0,3}(?:on|in)\s+(?:my|the|our)\s+(?:kids?|children|dog|cat|pets?|food|drinking\s+water|well|pond\s+with\s+fish)\b/,
  /\b(?:gasoline|diesel|motor\s+oil|antifreeze)\b[^.?!]{0,160}\b(?:weeds?|kill|garden|soil|stump)\b/,
];
const MUSHROOM_ID =
  /\b(?:mushrooms?|toadstools?|fung(?:us|i))\b[^.?!]{0,160}\b(?:eat|edible|eating|safe|poisonous|toxic|ate|cook|deadly|morels?|chanterelles?)\b|\b(?:eat|edible|safe|poisonous|toxic|ate)\b[^.?!]{0,160}\b(?:mushrooms?|toadstools?)\b|\bforag\w*\b[^.?!]{0,160}\bmushrooms?\b/;

const matchWithContext = (text: string, re: RegExp): Array<{ index: number; length: number }> => {
  const out: Array<{ index: number; length: number }> = [];
  const global = new RegExp(re.source, 'g');
  for (let m = global.exec(text); m; m = global.exec(text)) {
    out.push({ index: m.index, length: m[0].length });
    if (m[0].length === 0) global.lastIndex++;
  }
  return out;
};

const PEOPLE_INGEST = new RegExp(String.raw`\b${PEOPLE}\s+(?:\w+\s+){0,3}?${INGEST}\b`);
const PETS_INGEST = new RegExp(String.raw`\b${PETS}\s+(?:\w+\s+){0,3}?${INGEST}\b`);
const PUT_IN_MOUTH =
  /\b(?:put|stuck|had)\s+(?:a|an|some|the)?\s*(?:\w+\s+){0,3}in\s+(?:his|her|their|my|its)\s+mouth\b/;
const INGEST_ANY = new RegExp(String.raw`\b${INGEST}\b`);
const EDIBILITY_QUESTION =
  /\b(?:can|could|should)\s+(?:i|we|you)\s+(?:\w+\s+)?(?:eat|cook)\b|\b(?:is|are)\s+(?:\w+\s+){0,3}(?:edible|good\s+to\s+eat)\b/;

/** Eating in a past or ongoing event: "ate", "swallowed", "is eating", "got into". */
const INGESTION_EVENT =
  /\b(?:ate|eaten|chewed|chewing|swallowed|swallowing|licked|licking|drank|ingested|consumed|nibbled|munched|bit\s+into|tasted|got\s+into|put\s+\w+\s+in\s+\w+\s+mouth|(?:is|are|was|were|been|be|keeps?)\s+eating)\b/;
/**
 * Eating as a habit, not an event: "my grandkids eat from the garden, i dont want to spray poison"
 * is a gardener choosing a safe treatment, not a person who swallowed something.
 */
function habitualEating(lower: string): boolean {
  return (
    /\b(?:eat|eats)\b/.test(lower) &&
    // "getting eaten by something" is a pest at the plants.
    !INGESTION_EVENT.test(
      lower.replace(/\b(?:getting|being|get|got|been|was|were|is|are)\s+(?:\w+\s+)?eaten\b/g, ' '),
    ) &&
    !BODILY_SYMPTOMS.test(lower) &&
    !/\bpoisoned\b/.test(lower)
  );
}

/**
 * Finds a safety concern in a message: self-harm, intent to poison someone, a person or a pet
 * that ate a plant, mushroom or garden chemical, skin, eye or lung exposure to a garden chemical,
 * pesticide misuse (mixing bleach, using outdoor products indoors, over-dosing), or a question
 * about eating a wild mushroom. Null when there is none. Questions about toxicity in general
 * ("are lilies safe around cats?") and pests eating plants are not concerns.
 */
export function detectSafetyConcern(text: string): SafetyConcern | null {
  const lower = text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ');
  const make = (category: SafetyCategory, description: string): SafetyConcern => ({
    category,
    description,
    guidance: SAFETY_GUIDANCE[category],
  });
  if (SELF_HARM.test(lower.replace(PLANT_GOING_TO_DIE, ' ')))
    return make('self_harm', 'Mentions self-harm or suicide.');
  if (HARM_TO_OTHERS.some((p) => p.test(lower)))
    return make('harm_to_others', 'Asks how to poison or harm someone.');
  if (MISUSE.some((p) => p.test(lower)))
    return make('pesticide_misuse', 'Describes dangerous pesticide or chemical use.');
  const mushroomQuestion = MUSHROOM_ID.test(lower);

  const petIngested = PETS_INGEST.test(lower);
  if (petIngested && (RISKY_THINGS.test(lower) || SYMPTOMS.test(lower))) {
    return make('pet_poisoning', 'A pet may have eaten a toxic plant or garden product.');
  }
  // A report with symptoms keeps "they" as people: "feeding the deer and they ate yew, now vomiting".
  const people =
    NAMES_BROWSER.test(lower) && !NAMES_PERSON.test(lower) && !SYMPTOMS.test(lower)
      ? lower.replace(/\bthey\b/g, 'the animals')
      : lower;
  const habit = habitualEating(lower);
  const personIngested =
    (PEOPLE_INGEST.test(people.replace(ANIMAL_EATING, 'the animals feed')) || PUT_IN_MOUTH.test(lower)) &&
    !habit;
  if (personIngested && !EDIBILITY_QUESTION.test(lower)) {
    const firstPerson =
      /\b(?:i|we)\s+(?:\w+\s+){0,3}?(?:ate|eaten|eat|chewed|swallowed|drank|ingested|tasted)\b/.test(lower);
    const dangerous =
      RISKY_THINGS.test(lower) &&
      (!firstPerson ||
        SYMPTOMS.test(lower) ||
        /\bwild\b|mushroom|bulb|berr|poison|toxic|chemical|pesticide|weed\s*killer|fertili/.test(lower));
    if (dangerous || SYMPTOMS.test(lower)) {
      if (mushroomQuestion) return make('mushroom_identification', 'Someone may have eaten a wild mushroom.');
      return make('human_poisoning', 'A person may have swallowed a toxic plant or garden product.');
    }
  }
  // Something was eaten with no clear subject ("ate a daffodil bulb thinking it was an onion").
  for (const hit of habit ? [] : matchWithContext(lower, INGEST_ANY)) {
    const before = lower.slice(Math.max(0, hit.index - 40), hit.index);
    if (PEST_SUBJECT.test(before)) continue;
    const after = lower.slice(hit.index, hit.index + 60);
    if (RISKY_THINGS.test(after) && SYMPTOMS.test(lower) && !EDIBILITY_QUESTION.test(lower)) {
      return make('human_poisoning', 'Someone may have swallowed a toxic plant or garden product.');
    }
  }
  if (
    CHEMICALS.test(lower) &&
    BODY_CONTACT.test(lower) &&
    (SYMPTOMS.test(lower) ||
      /\baccident\w*|\bgot\b|\bsplash\w*|\bspill\w*|\bsprayed\b|\bspraying\b/.test(lower))
  ) {
    return make('chemical_exposure', 'Describes skin, eye or breathing exposure to a garden chemical.');
  }
  if (
    /\b(?:giant\s+hogweed|hogweed|poison\s+(?:ivy|oak|sumac)|wild\s+parsnip|euphorbia|spurge|rue)\b/.test(
      lower,
    ) &&
    /\b(?:blister\w*|burn(?:s|ing|ed)?|rash|swell\w*|swollen|hives|eyes?|can'?t\s+breathe|trouble\s+breathing)\b/.test(
      lower,
    )
  ) {
    return make('chemical_exposure', 'Describes a skin or eye reaction to a plant.');
  }
  if (mushroomQuestion)
    return make('mushroom_identification', 'Asks whether a wild mushroom is safe to eat.');
  return null;
}
