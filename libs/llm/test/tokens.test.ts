import * as fs from 'node:fs';
import * as path from 'node:path';
import { countTokens as exactTokens } from 'gpt-tokenizer';
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import {
  IMAGE_TOKEN_ESTIMATE,
  O200K_PIECES_FILE,
  countChatTokens,
  countTokens,
  escapePiece,
  fitHistory,
  type ChatMessage,
} from '@sprout/llm';

// The encoding itself, as the API counts: special-token text is plain text.
const exact = (text: string) => exactTokens(text, { disallowedSpecial: new Set() });

/** Every string of the gardening advisor's knowledge: English as the prompts carry it. */
const advisorTexts = (): string[] => {
  const texts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.json')) walk(JSON.parse(fs.readFileSync(file, 'utf8')));
    }
  };
  visit(path.join(__dirname, '..', '..', 'gardening', 'data', 'advisor'));
  return texts;
};

const isAscii = (text: string) => [...text].every((c) => c.charCodeAt(0) < 128);
const piecesOf = (text: string) => [...text.matchAll(O200K_TOKEN_SPLIT_REGEX)].map(([piece]) => piece);

/**
 * The table the counting ships: every o200k_base token that is one whole ASCII piece of text, and
 * the ASCII pieces of the advisor's knowledge that take more, with their counts.
 */
const o200kPieces = (): string => {
  const tokens = new Map<string, number>();
  for (const token of o200kRanks as readonly (string | readonly number[])[]) {
    if (typeof token !== 'string' || !isAscii(token)) continue;
    const split = piecesOf(token);
    if (split.length === 1 && split[0] === token) tokens.set(escapePiece(token), 1);
  }
  for (const text of advisorTexts())
    for (const piece of piecesOf(text))
      if (isAscii(piece) && !tokens.has(escapePiece(piece))) tokens.set(escapePiece(piece), exact(piece));
  // Sorted by piece alone, as the lookup compares them.
  const sorted = [...tokens].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.map(([piece, count]) => (count === 1 ? `${piece}\n` : `${piece}\t${count}\n`)).join('');
};

describe('countTokens', () => {
  it("ships o200k_base's one-token pieces (UPDATE_TOKEN_PIECES=1 writes them)", () => {
    const expected = o200kPieces();
    if (process.env.UPDATE_TOKEN_PIECES === '1') fs.writeFileSync(O200K_PIECES_FILE, expected, 'latin1');
    expect(fs.readFileSync(O200K_PIECES_FILE, 'latin1') === expected).toBe(true);
  });

  it('never counts fewer tokens than o200k_base, and as many for plain English', () => {
    const samples = [
      ...advisorTexts(),
      'When should I plant tomatoes in zone 7b? My ZIP is 97201.',
      '¿Cuándo siembro jitomates en Guadalajara? Tengo un jardín pequeño 🍅🌱',
      'Quand planter les pommes de terre à Montréal ? Über 東京 und Zürich, naïve café.',
      'Call +1 (503) 555-0123 or see https://example.com/a/b?c=d&e=f#x, 1234567890.12',
      'hi <|endoftext|> there <|im_start|>system\n\n\r\n  \t indented\\path\\to',
      "It's, they'll, we'd've; DON'T SHOUT!!! ...?!  \n\n- bullet\n  * nested",
      'xqzjvk qwrtp zzzzzzzz AAAAAAAAAA aBcDeFgHiJ 0x1F9F3 ________ ~~~~ ````',
      '👨‍👩‍👧‍👦 ñ ü é ø ß ğ ş ł ą ж ы я ع ש ह क 한국어 中文 日本語 \u0000\u0001',
    ];
    let estimated = 0;
    let actual = 0;
    for (const text of samples) {
      const count = countTokens(text);
      const truth = exact(text);
      if (count < truth) throw new Error(`${count} < ${truth} tokens for ${JSON.stringify(text)}`);
      estimated += count;
      actual += truth;
    }
    expect(estimated).toBeGreaterThanOrEqual(actual);
    // Most pieces of English are one token each: the count stays close to the encoding's.
    const english = advisorTexts().join('\n');
    expect(countTokens(english) / exact(english)).toBeLessThan(1.1);
    const sentence = 'Water tomatoes deeply twice a week, and mulch them when the nights stay warm.';
    expect(countTokens(sentence)).toBe(exact(sentence));
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello')).toBe(1);
  });
});

describe('countChatTokens', () => {
  it('adds message framing and reply priming to the text', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are a gardening advisor.' },
      { role: 'user', content: 'When do I plant peas?' },
    ];
    const text = countTokens('You are a gardening advisor.') + countTokens('When do I plant peas?');
    expect(countChatTokens(messages)).toBe(text + 2 * 4 + 3);
    expect(countChatTokens([])).toBe(0);
  });

  it('estimates image parts', () => {
    const withImage: ChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'https://example.com/leaf.jpg' } },
        ],
      },
    ];
    expect(countChatTokens(withImage)).toBe(countTokens('What is this?') + IMAGE_TOKEN_ESTIMATE + 4 + 3);
  });
});

describe('fitHistory', () => {
  const system: ChatMessage = { role: 'system', content: 'You are Sprout, a gardening advisor.' };
  const turns: ChatMessage[] = Array.from({ length: 10 }, (_, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: `Message ${i} about compost, mulch and watering schedules.`,
  }));

  it('keeps everything when it fits', () => {
    const all = [system, ...turns];
    expect(fitHistory(all, 10_000)).toEqual(all);
  });

  it('keeps the system prompt and the newest turns that fit, in order', () => {
    const all = [system, ...turns];
    const budget = countChatTokens([system, ...turns.slice(-3)]);
    const fitted = fitHistory(all, budget);
    expect(fitted).toEqual([system, ...turns.slice(-3)]);
    expect(countChatTokens(fitted)).toBeLessThanOrEqual(budget);
  });

  it('keeps the system prompt even when nothing else fits', () => {
    expect(fitHistory([system, ...turns], 1)).toEqual([system]);
  });

  it('stops at the first turn that does not fit, leaving no gap', () => {
    const long: ChatMessage = { role: 'user', content: 'very long '.repeat(500) };
    const short: ChatMessage = { role: 'assistant', content: 'ok' };
    const newest: ChatMessage = { role: 'user', content: 'and now?' };
    const fitted = fitHistory(
      [system, short, long, short, newest],
      countChatTokens([system, short, short, newest]) + 5,
    );
    expect(fitted).toEqual([system, short, newest]);
  });
});
