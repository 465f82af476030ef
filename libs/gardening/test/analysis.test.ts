import {
  analyzeSentiment,
  detectTopics,
  TOPIC_TAXONOMY,
  TOPICS,
  topicCategory,
  type Sentiment,
} from '@sprout/gardening';

describe('analyzeSentiment', () => {
  it.each<[string, Sentiment]>([
    ['Thank you so much, that worked great!', 'positive'],
    ['My tomatoes are thriving this year, love it', 'positive'],
    ['yay first strawberries!', 'positive'],
    ['My basil is dying and I am sad', 'negative'],
    ['the deer destroyed my hostas', 'negative'],
    ['not happy with how the beans turned out', 'negative'],
    ['Nothing works, my squash keeps dying every year', 'frustrated'],
    ['I tried everything and the aphids are still there', 'frustrated'],
    ['ugh the slugs again!!!', 'frustrated'],
    ['WHY ARE MY PLANTS DYING', 'frustrated'],
    ["I'm about to give up on roses", 'frustrated'],
    ['When should I plant garlic?', 'neutral'],
    ['my tomato leaves have spots', 'neutral'],
    ['', 'neutral'],
  ])('%j -> %s', (text, sentiment) => {
    expect(analyzeSentiment(text)).toBe(sentiment);
  });
});

describe('detectTopics', () => {
  it('finds vegetables by name and problems, in order of appearance', () => {
    expect(detectTopics('aphids on my tomatoes')).toEqual(['pests', 'tomatoes']);
    expect(detectTopics('my tomato leaves have aphids')).toEqual(['tomatoes', 'pests']);
  });

  it.each<[string, string[]]>([
    ['powdery mildew on zucchini', ['diseases', 'squash']],
    ['when do I plant peppers', ['planting schedule', 'peppers']],
    ['best fertilizer for my lawn', ['fertilizer', 'lawn']],
    ['pruning my apple tree', ['pruning', 'fruit trees', 'trees and shrubs']],
    ['my monstera needs repotting', ['houseplants', 'transplanting']],
    ['starting seeds indoors under grow lights', ['seed starting', 'indoor growing']],
    ['compost or mulch for raised beds?', ['compost', 'mulch', 'raised beds']],
    ['frost tonight, will my basil survive', ['frost protection', 'herbs']],
    ['dandelions everywhere', ['weeds']],
    ['harvesting garlic', ['harvesting', 'garlic']],
    ['my succulents in containers', ['succulents', 'containers']],
    ['blueberries need acidic soil', ['berries', 'soil']],
    ['pruning roses', ['pruning', 'roses']],
  ])('%s', (text, expected) => {
    const topics = detectTopics(text);
    for (const topic of expected) expect(topics).toContain(topic);
  });

  it('tells plants from look-alikes', () => {
    expect(detectTopics('cherry tomatoes')).not.toContain('fruit trees');
    expect(detectTopics('fiddle leaf fig')).not.toContain('fruit trees');
    expect(detectTopics('lemon balm')).not.toContain('citrus');
    expect(detectTopics('brussels sprouts')).toContain('brussels sprouts');
    expect(detectTopics('peace lily')).not.toContain('peas');
    expect(detectTopics('sweet potatoes')).toEqual(['sweet potatoes']);
  });

  it('returns nothing for non-gardening text and honours the limit', () => {
    expect(detectTopics('who won the game last night')).toEqual([]);
    expect(detectTopics('aphids and slugs on tomatoes and peppers', 2)).toHaveLength(2);
  });

  it('has one definition per taxonomy topic', () => {
    expect(TOPIC_TAXONOMY.map((t) => t.topic)).toEqual([...TOPICS]);
    expect(topicCategory('tomatoes')).toBe('vegetable');
    expect(topicCategory('pests')).toBe('problem');
  });
});
