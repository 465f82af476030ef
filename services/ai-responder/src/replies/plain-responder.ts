import { type ChatRequest, messageText } from '@sprout/llm';

/**
 * The walking skeleton's answer: it acknowledges the text honestly and asks for the one thing
 * advice needs first (a ZIP code), until the reply pipeline with the offline advisor replaces it.
 */
export const plainResponder = (request: ChatRequest): string => {
  const question = [...request.messages].reverse().find((m) => m.role === 'user');
  const text = question === undefined ? '' : messageText(question).trim();
  if (text.length === 0) {
    return 'Sprout here! We got your message. Text us a gardening question and your ZIP code and we will help. Reply STOP to opt out.';
  }
  return (
    'Sprout here! Thanks, we got your question. Personalised advice for your garden needs your ZIP code: ' +
    'text it to us and we will tailor tips to your zone. Reply HELP for help, STOP to opt out.'
  );
};
