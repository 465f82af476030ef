// Carrier compliance keywords (CTIA / Twilio Advanced Opt-Out) and opt-out by intent (FCC,
// 47 CFR 64.1200(a)(10): any reasonable way of saying it, in any language we can read). Every
// channel that takes a user's text (the SMS webhook, the console's simulator, the ai-responder's
// guard) reads them here.
//
// The text is folded: NFKC, lower case, accents dropped ("ARRÊT" -> "arret", "más" -> "mas"),
// apostrophes dropped, runs of single letters joined ("S.T.O.P", "s t o p" -> "stop"), "opt out",
// "no more", "no más" and "not interested" read as one word each. Punctuation splits it into clauses.
// 1. The whole text is a keyword ("STOP!", "opt-out", "BAJA", "Arrêt", "退订", "Help?"): opt-out,
//    opt-in or help.
// 2. A short text (at most MAX_INTENT_WORDS words) opts out when
//    a. it says so in a phrase aimed at us: a stop word before our messages ("can you stop sending
//       me these texts"), "unsubscribe" / "opt out" / "revoke" anywhere, "remove me", "remove my
//       number", "take me off", "don't text me", "I don't want these messages", "wrong number",
//       "leave me alone", "I never signed up for this", and their Spanish forms ("no me envíen más
//       mensajes", "ya no quiero mensajes", "quítame de la lista", "número equivocado"...); or
//    b. a clause is an opt-out word with nothing but courtesy and words about our messages
//       ("Stop please", "STOP texting me", "no more", "cancel my subscription", "parar por favor",
//       "enough of these texts"), and every other clause is chatter ("wrong number, stop",
//       "who is this? stop", "enough, stop").
// 3. A short text that may be an opt-out but may not is answered with one question (reply STOP),
//    never opted out and never sent to the model (maybe_opt_out):
//    a. an opt-out clause beside words that may be about plants ("Stop. My tomatoes are fine");
//    b. "enough" on its own, or with chatter ("enough!", "that's enough", "suficiente");
//    c. "no more", "cancel" or "enough with" before one or two other words, not as a question
//       ("no more tomatoes", "cancel order", "no más tomates").
// A question about plants never qualifies: "how do I stop aphids?", "stop slugs eating my hostas",
// "enough sun for tomatoes?", "cancel my order of seeds?" carry words (aphids, slugs, sun, order)
// that are neither courtesy nor about our messages, their stop word is not aimed at our messages,
// and a question is not a maybe.
// Spanish texts are confirmed in Spanish; every other language in English.
import { HELP_KEYWORDS, OPT_IN_KEYWORDS, OPT_OUT_KEYWORDS } from '@sprout/contracts';
import { type SmsEncoding, analyzeSms } from './segments';

/**
 * opt_out / opt_in / help as carriers define them; maybe_opt_out: asked to reply STOP, nothing
 * changes. tips_opt_in / tips_opt_out: TIPS and TIPS OFF, garden calendar tips only (STOP still ends
 * everything). tips_decline: a bare "no" that declines the offer of tips only when it follows one
 * (the recorder decides, from the user's tips status); anywhere else it is an ordinary text.
 */
export type ComplianceKeyword =
  'opt_out' | 'opt_in' | 'help' | 'maybe_opt_out' | 'tips_opt_in' | 'tips_opt_out' | 'tips_decline';

/** The language of a confirmation: Spanish for a text in Spanish, English for every other. */
export type ConfirmationLanguage = 'en' | 'es';

/** Spanish opt-outs (the whole text): confirmed in Spanish. BASTA is Italian's too. */
export const SPANISH_OPT_OUT_KEYWORDS = [
  'PARAR',
  'PARA',
  'PARE',
  'ALTO',
  'BAJA',
  'CANCELAR',
  'DETENER',
  'DETENTE',
  'BASTA',
  'YA BASTA',
  'NO MÁS',
  'YA NO',
  'SALIR',
  'DESUSCRIBIR',
  'DESUSCRIBIRME',
  'DARME DE BAJA',
] as const;

/**
 * Other opt-outs (the whole text), confirmed in English: REMOVE and TD (the common carrier
 * extensions: TD is Chinese pinyin shorthand), French, German, Portuguese (PARE, PARAR and
 * CANCELAR are Spanish's too) and Chinese.
 */
export const OTHER_OPT_OUT_KEYWORDS = [
  'REMOVE',
  'TD',
  'ARRÊT',
  'ARRÊTER',
  'DÉSABONNER',
  'DÉSINSCRIRE',
  'STOPP',
  'ABMELDEN',
  'ABBESTELLEN',
  'AUFHÖREN',
  'SAIR',
  'DESCADASTRAR',
  '退订',
] as const;

/** Longest text (in words) read for an opt-out intent; a longer one is a question or a story. */
export const MAX_INTENT_WORDS = 12;
/** Longest text (in words) read as a "no more ..." / "cancel ..." that may be an opt-out. */
const MAX_MAYBE_WORDS = 6;

const set = (words: string): Set<string> => new Set(words.trim().split(/\s+/));

/** Opt-out words as read in a clause ("opt out", "no more", "no más", "not interested" folded to one). */
const OPT_OUT_WORDS = set(`
  stop stopall unsubscribe unsub cancel end quit optout revoke nomore notinterested
  parar paren alto baja cancelar cancela cancelen detener detente detengan basta nomas salir
  desuscribir desuscribirme arret arreter desabonner desinscrire stopp abmelden abbestellen aufhoren
  sair descadastrar 退订`);

/** Words about our messages: beside "enough" they make it an opt-out ("enough with the texts"). */
const ABOUT_US_WORDS = set(`
  texts text texting txt txts message messages messaging msg msgs sms alerts notifications tips
  reminders spam sprout subscription subscriptions account list service
  mensajes mensaje textos texto notificaciones suscripcion lista servicio`);

/** Words that may stand beside an opt-out word without changing what it means. */
const COURTESY_WORDS = new Set([
  ...ABOUT_US_WORDS,
  ...set(`
    please pls plz now right away immediately asap already again thanks thank thx ty you u ok okay
    just hey hi hello no i im me my we us our want wanna would like id to do it its all this that
    thats these those the a any anymore more of off from for with your ur number sending send
    permanently forever completely everything here them sir and yes enough seriously omg ugh wtf
    jeez geez damn fucking freaking effing bloody
    por favor porfa porfavor xfa ya ahora gracias me mi mis nos el la los las de del sus su tus tu
    estos estas esos esas este esta esto eso todo todos todas nada mas quiero numero ustedes usted
    inmediatamente y vale
    bitte danke svp merci obrigado obrigada`),
]);

/** Words of a clause that says nothing about plants ("who is this", "wrong number", "how did you get my number"). */
const CHATTER_WORDS = set(`
  who whos what whats is are wrong person how did get got never signed sign up sorry lol scam why
  nope quien es eres equivocado que como consiguieron tienen hola`);

/** "Enough": on its own a maybe, with words about our messages an opt-out. */
const ENOUGH_WORDS = set('enough suficiente');

/** Words that make "no more X", "cancel X", "enough with X" a maybe when X is one or two other words. */
const MAYBE_LEADS = set('nomore nomas cancel cancelar enough suficiente basta');

/** A first word that makes a text a question. */
const QUESTION_WORDS = set(`
  how what when why where which who should can could is are do does did will would whats hows
  shall may am como cuando que porque donde cual cuanto cuanta cuantos cuantas debo puedo`);

/** Words only a Spanish text has (of those read here): its confirmation is in Spanish. */
const SPANISH_WORDS = set(`
  parar paren para pare alto baja cancelar cancela cancelen detener detente detengan basta nomas
  salir desuscribir desuscribirme darme dame quitame quitenme sacame saquenme borrame borrenme
  eliminame dejame dejenme envien manden escriban mandes envies quiero mensajes mensaje textos
  texto por favor porfa porfavor xfa gracias ya ustedes numero equivocado lista suscripcion
  suficiente quien eres hola`);

/** Phrases aimed at us that opt out wherever they stand in a short text (on the folded text). */
const OPT_OUT_PHRASE = new RegExp(
  [
    // "stop texting me", "can you stop sending me these texts", "end all messages", "cancel my subscription"
    String.raw`\b(?:stop|stopall|end|cancel|quit|halt|cease)(?: (?:all|the|these|those|this|your|ur|my|any|of|with|it|now|please|pls|me|us|sending|send|receiving|getting|fucking|freaking|effing|damn|just))* (?:texts?|texting|txts?|txting|messages?|messaging|msgs?|sms|subscriptions?|alerts?|notifications?|tips|reminders|spam|spamming|sending|contacting|bothering|bugging|pestering|harassing|calling|emailing)\b(?! (?:you|u)\b)`,
    String.raw`\b(?:unsubscribe|unsub|optout|revoke)\b`,
    // "remove me", "please remove my number", "take me off your list", "opt me out"
    String.raw`\b(?:remove|delete|erase) me\b|\btake me off\b|\bopt (?:me|us) out\b`,
    String.raw`\b(?:remove|delete|erase|lose|take) (?:my|this) (?:number|phone number|phone|cell|contact|info|details)\b`,
    String.raw`\b(?:dont|do not|never|stop|quit) (?:ever )?(?:text|txt|message|msg|contact|sms|send|email|call)(?:ing)? (?:me|us)\b`,
    // "I don't want these messages anymore", "I no longer wish to receive texts"
    String.raw`\b(?:dont|do not|no longer|never) (?:want|need|wanna|wish)(?: (?:to|get|receive|getting|receiving|any|these|those|this|your|ur|the|more|of|all|them))* (?:texts?|txts?|messages?|msgs?|sms|alerts?|notifications?|tips|reminders)\b`,
    String.raw`^(?:i )?(?:dont|do not|no longer) want (?:this|these|them|it|that|those|any of this)(?: (?:anymore|please|thanks|thank you|ok))*$`,
    String.raw`\b(?:done with|sick of|tired of|fed up with)(?: (?:the|these|those|your|ur|all|this|of|you))* (?:texts?|txts?|messages?|msgs?|sms|alerts?|tips|reminders|spam)\b`,
    String.raw`\bnomore (?:texts?|txts?|messages?|msgs?|sms|alerts?|tips|reminders|spam)\b`,
    String.raw`\bleave (?:me|us) alone\b`,
    // "wrong number", but not "the wrong number of seeds"
    String.raw`\bwrong (?:number|person|phone)\b(?! (?:of|for)\b)`,
    String.raw`\b(?:never|didnt|did not) (?:signed|sign|subscribed|subscribe|asked|ask) (?:up )?for (?:this|these|that|it|them|you|your \w+|texts?|messages?|sprout)$|\b(?:never|didnt|did not) (?:signed|sign) up$`,
    // Spanish: "no me envíen más mensajes", "ya no quiero mensajes", "quítame de la lista",
    // "dejen de enviarme mensajes", "déjame en paz", "número equivocado", "quiero darme de baja"
    String.raw`\bno (?:me |nos )?(?:envien|envies|envie|manden|mandes|mande|escriban|escribas|escriba|contacten|contactes|molesten|molestes)\b`,
    String.raw`\bno quiero(?: (?:recibir|sus|tus|estos|esos|los|ningun|mas|nada|de|ustedes))* (?:mensajes?|textos?|sms|notificaciones)\b|\bno quiero (?:nada|nomas|recibir nada)$`,
    String.raw`\b(?:quitame|quitenme|quiteme|sacame|saquenme|saqueme|borrame|borrenme|borreme|eliminame|eliminenme|elimineme)\b`,
    String.raw`\b(?:deja|dejen|deje|dejar|para|paren|pare|parar) de (?:enviar|mandar|escribir|molestar|contactar|textear)`,
    String.raw`\b(?:dejame|dejenme|dejeme) en paz\b`,
    String.raw`\bnumero equivocado\b|\bequivocados? de numero\b`,
    String.raw`\b(?:darme|darse|dame|denme|deme|dar|doy|me doy) de baja\b`,
  ].join('|'),
);

/** Accents dropped, so "ARRÊT", "no más" and "quítame" read as "arret", "no mas" and "quitame". */
const withoutAccents = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .normalize('NFC');

/** Runs of three or more single letters joined, whatever separates them ("S.T.O.P", "s t o p", "S-T-O-P"). */
const SPELLED_OUT = /(?<![\p{L}\p{N}])\p{L}(?:[^\p{L}\p{N}\n]{1,3}\p{L}(?![\p{L}\p{N}])){2,}/gu;

/** What ends a clause: sentence punctuation, a comma, a line break, a dash between spaces, brackets, quotes. */
const CLAUSE_BREAK = /[.!?;,:¡¿\n\r()[\]"\u201c\u201d\u2026]+|\s[-\u2013\u2014]+\s/u;

/** A clause's words: apostrophes dropped ("don't" -> "dont"), everything but letters and digits a break. */
const wordsOf = (clause: string): string[] =>
  ` ${clause.replace(/['\u2019\u02bc`]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ')} `
    .replace(/ opt out /g, ' optout ')
    .replace(/ no (?:more|mas) /g, (m) => ` no${m.slice(4)}`)
    .replace(/ not interested /g, ' notinterested ')
    .trim()
    .split(' ')
    .filter((w) => w !== '');

interface FoldedText {
  /** The clauses' words. */
  clauses: string[][];
  /** Every word, space-separated. */
  text: string;
  words: string[];
  question: boolean;
}

const fold = (raw: string): FoldedText => {
  const text = withoutAccents(raw.normalize('NFKC').toLowerCase()).replace(SPELLED_OUT, (run) =>
    run.replace(/[^\p{L}]/gu, ''),
  );
  const clauses = text
    .split(CLAUSE_BREAK)
    .map(wordsOf)
    .filter((c) => c.length > 0);
  const words = clauses.flat();
  const question = /[?¿]/.test(text) || QUESTION_WORDS.has(words[0] ?? '');
  return { clauses, text: words.join(' '), words, question };
};

/** Whole-text keywords, by their letters alone ("STOP ALL", "no más", "Arrêt!"). */
const KEYWORDS = new Map<string, { type: ComplianceKeyword; language: ConfirmationLanguage }>();
const addKeywords = (
  words: readonly string[],
  type: ComplianceKeyword,
  language: ConfirmationLanguage,
): void => {
  for (const word of words) {
    KEYWORDS.set(withoutAccents(word.toLowerCase()).replace(/[^\p{L}\p{N}]/gu, ''), { type, language });
  }
};
addKeywords(OPT_OUT_KEYWORDS, 'opt_out', 'en');
addKeywords(OTHER_OPT_OUT_KEYWORDS, 'opt_out', 'en');
addKeywords(SPANISH_OPT_OUT_KEYWORDS, 'opt_out', 'es');
addKeywords(OPT_IN_KEYWORDS, 'opt_in', 'en');
addKeywords(HELP_KEYWORDS, 'help', 'en');

// Tips keywords, on the folded words. Read before the opt-out intent: "STOP TIPS" ends tips only.
const TIPS_ON = new RegExp(
  String.raw`^(?:(?:yes|yeah|yep|ok|okay|sure|please|pls) )*` +
    String.raw`(?:(?:start|send|send me|sign me up for|sign up for|subscribe|subscribe me to|turn on|i want|id like|give me) )?` +
    String.raw`(?:(?:the|my|garden|gardening|some) )*tips?(?: (?:on|please|pls|plz|yes|thanks|thank you|ok))*$`,
);
const TIPS_OFF = new RegExp(
  String.raw`^(?:(?:please|pls) )?(?:stop|end|cancel|quit|pause|no|nomore|turn off|unsubscribe|unsubscribe from|optout of|unsubscribe me from)` +
    String.raw`(?: (?:the|my|sending|sending me|me|your|these|those|garden|gardening))* tips?(?: (?:please|pls|plz|thanks|thank you|now))*$` +
    String.raw`|^(?:(?:garden|gardening|the) )?tips? (?:off|stop|nomore|no)(?: (?:please|pls|plz|thanks|thank you))*$`,
);
const TIPS_DECLINE =
  /^(?:no|nope|nah|no thanks|no thank you|no thx|not now|not interested|notinterested|nty|pass)$/;

const tipsKeywordOf = (folded: FoldedText): ComplianceKeyword | null => {
  const text = folded.text;
  if (TIPS_OFF.test(text)) return 'tips_opt_out';
  if (TIPS_ON.test(text)) return 'tips_opt_in';
  return TIPS_DECLINE.test(text) ? 'tips_decline' : null;
};

type ClauseKind = 'opt-out' | 'enough' | 'chatter' | 'other';

const clauseKind = (words: string[]): ClauseKind => {
  const all = (...sets: Set<string>[]) => words.every((w) => sets.some((s) => s.has(w)));
  if (words.some((w) => OPT_OUT_WORDS.has(w)) && all(OPT_OUT_WORDS, COURTESY_WORDS)) return 'opt-out';
  if (words.some((w) => ENOUGH_WORDS.has(w)) && all(ENOUGH_WORDS, COURTESY_WORDS, CHATTER_WORDS)) {
    return words.some((w) => ABOUT_US_WORDS.has(w)) ? 'opt-out' : 'enough';
  }
  return all(COURTESY_WORDS, CHATTER_WORDS, OPT_OUT_WORDS) ? 'chatter' : 'other';
};

/** Words that are neither courtesy, chatter nor opt-out words: what a text is about. */
const isOtherWord = (w: string): boolean =>
  !COURTESY_WORDS.has(w) && !CHATTER_WORDS.has(w) && !OPT_OUT_WORDS.has(w) && !ENOUGH_WORDS.has(w);

/**
 * "no more tomatoes", "cancel order", "enough with the tomatoes": a lead word before one or two
 * other words, not a question. "enough" straight before a noun is a quantity ("enough sun"), and
 * "basta" only leads as "basta de" ("basta con regar" is "watering is enough").
 */
const mayBeOptOut = ({ words, question }: FoldedText): boolean => {
  if (question || words.length > MAX_MAYBE_WORDS) return false;
  const others = words.filter(isOtherWord).length;
  if (others < 1 || others > 2) return false;
  return words.some((w, i) => {
    if (!MAYBE_LEADS.has(w)) return false;
    const next = words[i + 1];
    if (w === 'basta') return next === 'de';
    if (ENOUGH_WORDS.has(w)) return next === undefined || !isOtherWord(next);
    return true;
  });
};

/** What a short folded text asks (rules 2 and 3 above), or null. */
const intentOf = (folded: FoldedText): 'opt_out' | 'maybe_opt_out' | null => {
  if (folded.words.length > MAX_INTENT_WORDS) return null;
  if (OPT_OUT_PHRASE.test(folded.text)) return 'opt_out';
  const kinds = folded.clauses.map(clauseKind);
  if (kinds.includes('opt-out')) return kinds.includes('other') ? 'maybe_opt_out' : 'opt_out';
  if (kinds.includes('enough') && !kinds.includes('other')) return 'maybe_opt_out';
  return mayBeOptOut(folded) ? 'maybe_opt_out' : null;
};

interface KeywordReading {
  type: ComplianceKeyword;
  /** As received, for the consent audit trail: the keyword, or the folded phrase (at most 32 chars). */
  keyword: string;
  language: ConfirmationLanguage;
}

const readKeyword = (text: string): KeywordReading | null => {
  const folded = fold(text);
  if (folded.words.length === 0) return null;
  const whole = KEYWORDS.get(folded.words.join(''));
  if (whole !== undefined) return { ...whole, keyword: folded.words.join('').toUpperCase() };
  const tips = tipsKeywordOf(folded);
  if (tips !== null) return { type: tips, language: 'en', keyword: folded.text.toUpperCase().slice(0, 32) };
  const type = intentOf(folded);
  if (type === null) return null;
  const language = folded.words.some((w) => SPANISH_WORDS.has(w)) ? 'es' : 'en';
  return { type, language, keyword: folded.text.toUpperCase().slice(0, 32) };
};

/**
 * The compliance keyword a text is, or asks for (opt-out by intent, or maybe one), or null. A bare
 * "no" is not one here: whether it declines the offer of tips depends on the user (see
 * ComplianceKeyword), and where it does not it is answered like any text.
 */
export function parseComplianceKeyword(text: string): ComplianceKeyword | null {
  const type = readKeyword(text)?.type ?? null;
  return type === 'tips_decline' ? null : type;
}

/** The program name carriers expect at the start of compliance answers. */
export const PROGRAM_NAME = 'Sprout';

/** Spanish confirmations, written without the accents GSM-7 lacks (so they stay one segment). */
const SPANISH_CONFIRMATIONS: Partial<Record<ComplianceKeyword, string>> = {
  opt_out: `${PROGRAM_NAME}: Te diste de baja y ya no te enviaremos mensajes. Responde START para volver a suscribirte.`,
  maybe_opt_out:
    `${PROGRAM_NAME}: Responde STOP o BAJA para darte de baja de nuestros mensajes. ` +
    'Para consejos sobre tus plantas, manda tu pregunta.',
};

/** The one answer each keyword gets (GSM-7, at most two segments), in the text's language. */
export const complianceConfirmation = (
  keyword: ComplianceKeyword,
  contactEmail: string,
  language: ConfirmationLanguage = 'en',
): string => {
  const spanish = language === 'es' ? SPANISH_CONFIRMATIONS[keyword] : undefined;
  if (spanish !== undefined) return spanish;
  switch (keyword) {
    case 'opt_out':
      return `${PROGRAM_NAME}: You're unsubscribed and will get no more messages from us. Reply START to resubscribe.`;
    case 'maybe_opt_out':
      return `${PROGRAM_NAME}: Reply STOP to unsubscribe from our texts. For gardening advice, just text us your question.`;
    case 'opt_in':
      return (
        `${PROGRAM_NAME}: You're subscribed to gardening advice by text. Text a question anytime. ` +
        'Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to opt out.'
      );
    case 'help':
      return (
        `${PROGRAM_NAME}: gardening advice by text for your region and season. Text a question anytime. ` +
        `Reply STOP to opt out, START to opt back in. Msg & data rates may apply. Help: ${contactEmail}`
      );
    case 'tips_opt_in':
      return tipsConfirmation(null, null);
    case 'tips_opt_out':
      return (
        `${PROGRAM_NAME}: Garden tips are off: no more tips or frost alerts. Text a garden question anytime. ` +
        'Reply TIPS to turn them back on, STOP to end all texts.'
      );
    case 'tips_decline':
      return `${PROGRAM_NAME}: OK, no tips. Text a garden question anytime.`;
  }
};

/**
 * The answer to TIPS: what the gardener signed up for (their ZIP and the most tips a month, when
 * known) and how to stop. GSM-7, two segments at most.
 */
export const tipsConfirmation = (zipCode: string | null, perMonth: number | null): string =>
  `${PROGRAM_NAME}: You're subscribed to ${PROGRAM_NAME} garden tips${zipCode === null ? '' : ` for ${zipCode}`}: ` +
  `${perMonth === null ? 'a few' : `up to ${perMonth}`} a month, timed to your frost dates, plus frost and heat alerts. ` +
  (zipCode === null ? 'Text us your ZIP code so we can time them. ' : '') +
  'Msg & data rates may apply. Reply TIPS OFF to stop tips, STOP to end all texts.';

/** A compliance keyword read from a text, with the answer it gets. */
export interface ComplianceAnswer {
  type: ComplianceKeyword;
  /** The keyword as received (STOP, UNSUBSCRIBE...), for the consent audit trail. */
  keyword: string;
  language: ConfirmationLanguage;
  reply: { content: string; encoding: SmsEncoding; segments: number };
}

/** The keyword a text is (or the opt-out it asks for, or may ask for) and its answer, or null. */
export function answerComplianceKeyword(text: string, contactEmail: string): ComplianceAnswer | null {
  const reading = readKeyword(text);
  if (reading === null) return null;
  const content = complianceConfirmation(reading.type, contactEmail, reading.language);
  const { encoding, segments } = analyzeSms(content);
  return { ...reading, reply: { content, encoding, segments } };
}

/** tipsConfirmation as the recorder stores it: the text with its encoding and segments. */
export const tipsConfirmationReply = (
  zipCode: string | null,
  perMonth: number,
): { content: string; encoding: SmsEncoding; segments: number } => {
  const content = tipsConfirmation(zipCode, perMonth);
  const { encoding, segments } = analyzeSms(content);
  return { content, encoding, segments };
};
