// The landing page's demo conversation: six messages, one revealed every 800 ms.
// Its zone and frost date are the ones Sprout gives for the ZIP it shows (a test holds them to it).
export const MESSAGE_REVEAL_DELAY_MS = 800;

export interface SampleMessage {
  from: 'gardener' | 'sprout';
  text: string;
}

export const sampleConversation: readonly SampleMessage[] = [
  {
    from: 'gardener',
    text: "Hi! I'm in 97214 and want to start a vegetable garden this spring. Where do I begin?",
  },
  {
    from: 'sprout',
    text: "Welcome! You're in zone 9a, with an average last frost around Feb 25. Start peas, lettuce and kale now; set out tomatoes and peppers once nights stay above 50F.",
  },
  { from: 'gardener', text: 'My tomato seedlings have yellow spots on the lower leaves. What is wrong?' },
  {
    from: 'sprout',
    text: 'That sounds like early blight. Pick off the spotted leaves, water at the soil instead of the leaves, and add mulch so soil does not splash up.',
  },
  { from: 'gardener', text: 'How often should I water them once it gets hot?' },
  {
    from: 'sprout',
    text: 'Deeply, about an inch a week. In July heat check every 2 to 3 days and water when the top inch of soil is dry.',
  },
];
