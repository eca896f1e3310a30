// crosscheck.mjs decides whether a phrase acts in Markdown bodies with a
// second CommonMark implementation, commonmark.js, to hold the decisions
// of internal/visible (goldmark) to it. Run by
// internal/visible/crosscheck_conformance_test.go (go test -tags
// conformance), with the packages of package-lock.json beside it.
//
// Input, on stdin: JSON lines {"i": N, "body": TEXT, "acts": BOOL}, acts
// being the Go package's decision, and for a body of the comment-marker
// family also "shown" (what visible.Read sends the agent) and "words" (its
// words are numbered q1q … qNq). Output, on stdout: a JSON line for each
// body where the decisions differ or shown is wrong, {"i", "body", "acts",
// "other", "text", "shown", "wrong"} (other is this script's decision,
// text the visible text it read, wrong what shown holds that the page has
// only in comments or lacks that the page shows), then one line
// {"summary": {...}} with the counts.
//
// The page is built as internal/visible builds it: the body rendered to
// HTML with its raw HTML kept (safe: false, as GitHub keeps the raw HTML
// it allows), parsed as a browser parses it (parse5), and read as
// visible.read reads it: text outside hidden elements and footnote marks,
// with a separator where an element breaks the text. Attributes (an
// image's description, a link's destination and title) are never text.
// The phrase acts where it stands as a whole word of that text.
//
//	node crosscheck.mjs [PHRASE] < bodies.jsonl   (PHRASE: /docs)

import readline from 'node:readline';
import { createRequire } from 'node:module';
import { parse } from 'parse5';

const require = createRequire(import.meta.url);
const commonmark = require('commonmark');

const phrase = process.argv[2] || '/docs';

// visible.HiddenElements.
const hidden = new Set(['blockquote', 'q', 'pre', 'code', 'kbd', 'samp', 'tt', 'var', 'script', 'style', 'textarea',
  'template', 'title', 'noscript', 'iframe', 'xmp', 'plaintext', 'noembed', 'noframes', 'object', 'select']);
// visible's blocks: HTML's block-level elements, and <br>.
const blocks = new Set(['address', 'article', 'aside', 'br', 'details', 'dd', 'dialog', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav',
  'ol', 'p', 'section', 'summary', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul', 'caption', 'center', 'legend',
  'menu', 'optgroup', 'option', 'body', 'html']);

// separator is visible.Separator.
function separator(tag) {
  if (hidden.has(tag) || tag === 'img' || tag === 'input' || tag === 'td' || tag === 'th') return ' ';
  if (blocks.has(tag)) return '\n';
  return '';
}

// footnoteMark is visible.footnoteMark (commonmark.js makes none; a
// body's raw HTML may).
function footnoteMark(n) {
  return n.tagName === 'a' && n.attrs.some(a => a.name === 'class' && (a.value === 'footnote-ref' || a.value === 'footnote-backref'));
}

// visibleText reads the page as visible.read does.
function visibleText(html) {
  let out = '';
  const sep = s => {
    if (s === '' || out === '' || out.endsWith('\n') || out.endsWith(s)) return;
    out += s;
  };
  const walk = n => {
    if (n.nodeName === '#text') {
      out += n.value;
      return;
    }
    const tag = n.tagName; // elements only; the document has none
    if (tag !== undefined) {
      if (hidden.has(tag) || footnoteMark(n)) {
        sep(' ');
        return;
      }
      sep(separator(tag));
    }
    for (const c of n.childNodes || []) walk(c); // comments and doctypes have none
    if (tag !== undefined) sep(separator(tag));
  };
  walk(parse(html));
  return out;
}

// shownWrong checks shown against the page as visible's shownWords does:
// a numbered word the page has only in comments must not be in shown, one
// it has in text or an attribute must.
function shownWrong(html, shown, words) {
  const seen = new Set(), commented = new Set();
  const mark = (set, s) => { for (const w of s.match(/q[0-9]+q/g) || []) set.add(w); };
  const walk = n => {
    if (n.nodeName === '#text') mark(seen, n.value);
    if (n.nodeName === '#comment') mark(commented, n.data);
    for (const a of n.attrs || []) mark(seen, a.value);
    for (const c of n.childNodes || []) walk(c);
    if (n.content) walk(n.content); // a template's
  };
  walk(parse(html));
  const wrong = [];
  for (let i = 1; i <= words; i++) {
    const w = `q${i}q`;
    if (commented.has(w) && !seen.has(w) && shown.includes(w)) wrong.push(`${w} is hidden but sent`);
    else if (seen.has(w) && !shown.includes(w)) wrong.push(`${w} is shown but not sent`);
  }
  return wrong.join('; ');
}

// wordRune is visible.WordRune.
const wordRune = /^[\p{L}\p{Nd}\p{M}_\-/@]$/u;

// wholeWord reports whether phrase stands in text as a whole word, as
// (*visible.Text).Find decides.
function wholeWord(text, phrase) {
  for (let start = 0; ;) {
    const i = text.indexOf(phrase, start);
    if (i < 0 || phrase === '') return false;
    const before = Array.from(text.slice(Math.max(0, i - 2), i)).pop();
    const after = String.fromCodePoint(text.codePointAt(i + phrase.length) ?? 0);
    const j = i + phrase.length;
    if ((i === 0 || !wordRune.test(before)) && (j === text.length || !wordRune.test(after))) return true;
    start = i + 1;
  }
}

const reader = new commonmark.Parser();
const writer = new commonmark.HtmlRenderer({ safe: false });

const summary = { bodies: 0, both: 0, neither: 0, goOnly: 0, commonmarkOnly: 0, shownWrong: 0 };
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line.trim() === '') continue;
  const rec = JSON.parse(line);
  const html = writer.render(reader.parse(rec.body));
  const text = visibleText(html);
  const other = wholeWord(text, phrase);
  const wrong = rec.words ? shownWrong(html, rec.shown || '', rec.words) : '';
  summary.bodies++;
  if (rec.acts && other) summary.both++;
  else if (!rec.acts && !other) summary.neither++;
  else if (rec.acts) summary.goOnly++;
  else summary.commonmarkOnly++;
  if (wrong) summary.shownWrong++;
  if (rec.acts !== other || wrong) {
    process.stdout.write(JSON.stringify({ i: rec.i, body: rec.body, acts: rec.acts, other, text, shown: rec.shown, wrong }) + '\n');
  }
}
process.stdout.write(JSON.stringify({ summary }) + '\n');
