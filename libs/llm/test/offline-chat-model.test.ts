import { LlmError, OfflineChatModel, countChatTokens, countTokens, type ChatRequest } from '@sprout/llm';
import { chatRequest as request } from './chat-request';

describe('OfflineChatModel', () => {
  it('answers with the responder and tokenizer counts', async () => {
    const seen: ChatRequest[] = [];
    const model = new OfflineChatModel((r) => {
      seen.push(r);
      return '  Water deeply once or twice a week, about an inch in all.  ';
    });
    const result = await model.complete(request);
    expect(seen).toEqual([request]);
    expect(result).toEqual({
      content: 'Water deeply once or twice a week, about an inch in all.',
      promptTokens: countChatTokens(request.messages),
      completionTokens: countTokens('Water deeply once or twice a week, about an inch in all.'),
      model: 'offline-advisor',
      provider: 'offline',
    });
    expect(model.provider).toBe('offline');
  });

  it('accepts async responders and a custom name', async () => {
    const model = new OfflineChatModel(async () => 'Mulch now.', { name: 'template' });
    await expect(model.complete(request)).resolves.toMatchObject({
      content: 'Mulch now.',
      model: 'template',
    });
  });

  it('wraps responder failures and empty answers as LlmError', async () => {
    const failing = new OfflineChatModel(() => {
      throw new Error('knowledge base missing');
    });
    await expect(failing.complete(request)).rejects.toMatchObject({
      name: 'LlmError',
      kind: 'server',
      retryable: false,
    });
    const empty = new OfflineChatModel(() => '   ');
    await expect(empty.complete(request)).rejects.toBeInstanceOf(LlmError);
  });

  it('times out a responder that never answers', async () => {
    const stuck = new OfflineChatModel(() => new Promise<string>(() => undefined));
    await expect(stuck.complete({ ...request, timeoutMs: 20 })).rejects.toMatchObject({
      kind: 'timeout',
      retryable: true,
    });
  });
});
