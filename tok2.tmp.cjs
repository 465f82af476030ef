const mem = (l) => { global.gc && global.gc(); const m = process.memoryUsage(); console.log(l, 'rss', (m.rss/1e6).toFixed(1), 'heap', (m.heapUsed/1e6).toFixed(1)); };
mem('start');
const fs = require('fs');
const { GptEncoding } = require('gpt-tokenizer/GptEncoding');
mem('core');
const t0 = performance.now();
const text = fs.readFileSync(require.resolve('gpt-tokenizer/package.json').replace('package.json','data/o200k_base.tiktoken'), 'utf8');
const ranks = [];
const dec = new TextDecoder('utf-8', { fatal: true });
for (const line of text.split('\n')) {
  if (!line) continue;
  const sp = line.indexOf(' ');
  const bytes = Buffer.from(line.slice(0, sp), 'base64');
  const rank = Number(line.slice(sp + 1));
  let v; try { v = dec.decode(bytes); } catch { v = [...bytes]; }
  ranks[rank] = v;
}
const api = GptEncoding.getEncodingApi('o200k_base', () => ranks);
console.log('ms', (performance.now()-t0).toFixed(0));
mem('loaded');
api.countTokens('hello world');
mem('first');
const ref = require('gpt-tokenizer');
const samples = ['hello world', 'When should I plant tomatoes in 97201? 🍅 frost', 'ñandú über 東京 12345678 <|endoftext|>'];
for (const s of samples) console.log(api.countTokens(s, {disallowedSpecial:new Set()}), ref.countTokens(s, {disallowedSpecial:new Set()}));
