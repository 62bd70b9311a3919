// Reads hex items, one a line, from standard input and prints the cbor
// package's diagnostic notation of each on one line (its own line breaks
// within an item are joined by spaces), or "error MESSAGE".
import cbor from 'cbor';
import { readFileSync } from 'node:fs';

const lines = readFileSync(0, 'utf8').split('\n').filter((l) => l !== '');
for (const h of lines) {
  try {
    const s = await cbor.diagnose(Buffer.from(h, 'hex'));
    console.log(s.trim().split('\n').join(' '));
  } catch (e) {
    console.log('error', String((e && e.message) || e).split('\n').join(' '));
  }
}
