// Parses each CDDL file named on the command line with the cddl package
// and prints for each file "ok FILE RULE..." with the rule names in
// order, then "array RULE MEMBER..." for each array rule (the members of
// nested groups in place), or "error FILE MESSAGE".
//
// The package does not read integer member keys ("? 1 => tstr", RFC 8610
// section 3.5.1), so each is first given a rule of its own (key-1 = 1),
// which is the same CDDL.
import { parse } from 'cddl';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

// members lists the names of an array's entries, those inside its
// unnamed groups (the optional trailing "? (...)") in place.
function members(values) {
  const names = [];
  for (const v of values) {
    if (v.Name === '' && v.Type && !Array.isArray(v.Type) && v.Type.Type === 'group' && v.Type.Properties) {
      names.push(...members(v.Type.Properties));
    } else {
      names.push(v.Name);
    }
  }
  return names;
}

const dir = mkdtempSync(join(tmpdir(), 'cddl-'));
for (const file of process.argv.slice(2)) {
  const keys = new Set();
  let text = readFileSync(file, 'utf8').replace(/\? (-?\d+) =>/g, (m, n) => {
    keys.add(n);
    return `? key${n.replace('-', 'm')} =>`;
  });
  for (const n of keys) text += `key${n.replace('-', 'm')} = ${n}\n`;
  const named = join(dir, 'named.cddl');
  writeFileSync(named, text);
  try {
    const rules = parse(named).filter((a) => !/^key/.test(a.Name));
    console.log('ok', file, rules.map((a) => a.Name).join(' '));
    for (const a of rules) {
      if (a.Type === 'array') console.log('array', a.Name, members(a.Values).join(' '));
    }
  } catch (e) {
    console.log('error', file, String((e && e.message) || e).split('\n').join(' '));
  }
}
