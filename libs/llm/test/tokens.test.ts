import {
  IMAGE_TOKEN_ESTIMATE,
  countChatTokens,
  countTokens,
  fitHistory,
  type ChatMessage,
} from '@sprout/llm';

describe('countTokens', () => {
  it('counts o200k_base tokens', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello')).toBe(1);
    expect(countTokens('When should I plant tomatoes in zone 7b?')).toBeGreaterThan(5);
    expect(countTokens('tomato '.repeat(100))).toBeGreaterThan(countTokens('tomato '.repeat(10)));
  });

  it('treats special-token text as plain text', () => {
    expect(countTokens('hi <|endoftext|> there')).toBeGreaterThan(3);
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
