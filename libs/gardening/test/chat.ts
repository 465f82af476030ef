/** The date advisor tests ask on, unless a test needs another. */
export const now = new Date('2025-05-01T12:00:00Z');

/** The gardener's messages as chat turns, each followed by an advisor reply. */
export const turns = (...texts: string[]) =>
  texts.flatMap((content) => [
    { role: 'user', content },
    { role: 'assistant', content: 'Here is what to do.' },
  ]);
