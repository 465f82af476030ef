/** The mood of a message. */
export type Sentiment = 'positive' | 'negative' | 'frustrated' | 'neutral';

/** Signs of frustration: repeated failure, giving up, anger at the plants or the advice. */
const FRUSTRATION: readonly RegExp[] = [
  /\bnothing\s+(?:works|worked|is\s+working|helps|helped|grows)\b/,
  /\b(?:tried|try)\s+(?:everything|it\s+all|all\s+of\s+that)\b/,
  /\b(?:keeps?|kept)\s+(?:dying|dieing|failing|happening|getting\s+worse|coming\s+back|killing)\b/,
  /\b(?:every|each)\s+(?:single\s+)?(?:year|time|season)\b.{0,160}\b(?:die|dies|died|dying|fail|fails|failed|lose|lost|rot|same)\b/,
  /\b(?:die|dies|died|dying|failed|fails|dead)\b.{0,160}\b(?:again|every\s+(?:year|time|season))\b/,
  /\bagain\s*!/,
  /\b(?:fed\s+up|sick\s+(?:of|and\s+tired)|had\s+enough|at\s+my\s+wits?'?\s+end|give\s+up|giving\s+up|gave\s+up|i\s+quit|losing\s+my\s+mind|driving\s+me\s+(?:crazy|nuts|insane))\b/,
  /\b(?:so|really|very)\s+(?:frustrat\w*|annoy\w*|angry|mad|pissed)\b/,
  /\b(?:frustrat\w*|infuriat\w*|exasperat\w*)\b/,
  /\b(?:ugh+|argh+|grr+|wtf|ffs|omfg)\b/,
  /\b(?:hate|hating)\s+(?:this|these|my|gardening|it|them)\b/,
  /\b(?:useless|pointless|waste\s+of\s+(?:time|money))\b/,
  /\bwhy\s+(?:does|do|is|are|won'?t|can'?t)\b[^.?!]{0,160}\b(?:always|keep|never|again)\b/,
  /\bstill\s+(?:dying|not\s+working|doesn'?t\s+work|dead|sick)\b/,
  /\b(?:didn'?t|did\s+not|doesn'?t|does\s+not|don'?t)\s+(?:work|help)\b.{0,160}\b(?:again|either|still|at\s+all|anything)\b/,
];

const POSITIVE_WORDS =
  /\b(?:thanks?|thank\s+you|thx|ty|appreciate\w*|great|awesome|amazing|love|loved|loving|wonderful|fantastic|excellent|perfect|helpful|happy|glad|excited|yay|woohoo|hooray|beautiful|gorgeous|thriving|worked|works\s+great|it\s+worked|success|successful|best|delicious|tasty|proud|bumper|abundant|nice|cool|sweet|lovely|finally\s+(?:bloom|fruit|grew|sprout)\w*)\b/g;
const NEGATIVE_WORDS =
  /\b(?:dying|died|dead|die|dies|kill(?:ed|ing|s)?|ruin(?:ed|ing|s)?|destroy(?:ed|ing|s)?|rotting|rotted|wilting|wilted|sad|disappoint\w*|worried|worry|upset|terrible|awful|horrible|bad|worse|worst|failed|failing|failure|lost|losing|problem|problems|struggl\w*|hopeless|devastat\w*|sucks|damn|crap|broke|broken|damaged|hate|unfortunately|no\s+luck|can'?t\s+figure)\b/g;
const NEGATION = /\b(?:not|no|never|isn'?t|wasn'?t|didn'?t|don'?t|doesn'?t|hardly)\s+(?:\w+\s+)?$/;

function countScored(text: string, re: RegExp): number {
  let count = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 20), m.index);
    count += NEGATION.test(before) ? -1 : 1;
  }
  return count;
}

/**
 * The mood of a message: "frustrated" for repeated failure, giving up or anger ("nothing works",
 * "they keep dying", "ugh!!!"), else "positive" or "negative" by a small negation-aware word list
 * ("not happy" counts as negative), else "neutral". Describing a plant problem calmly is neutral or
 * negative, never frustrated.
 */
export function analyzeSentiment(text: string): Sentiment {
  const lower = text.toLowerCase().replace(/[\u2018\u2019]/g, "'");
  if (lower.trim() === '') return 'neutral';
  const letters = text.replace(/[^A-Za-z]/g, '');
  const shouting = letters.length >= 12 && letters === letters.toUpperCase();
  const exclamations = (text.match(/!/g) ?? []).length;
  const positive = countScored(lower, POSITIVE_WORDS);
  const negative = countScored(lower, NEGATIVE_WORDS);
  const frustrationSigns = FRUSTRATION.filter((p) => p.test(lower)).length;
  const emphatic = /!{3,}|\?!|!\?/.test(text) || shouting;
  if (frustrationSigns >= 1 && positive <= 0) return 'frustrated';
  if (emphatic && negative > 0 && positive <= 0) return 'frustrated';
  const score = positive - (negative > 0 ? negative : 0) + (negative < 0 ? 1 : 0);
  if (score > 0) return 'positive';
  if (negative > 0 || positive < 0) return exclamations >= 2 && positive <= 0 ? 'frustrated' : 'negative';
  return 'neutral';
}
