/**
 * A minimal XML reader for the SVG the service draws: elements, attributes, text, with
 * well-formedness checked (balanced tags, quoted attributes, known entities). Enough to
 * assert on outlines and labels without snapshotting bytes.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** XML 1.0's Char production: what a document may contain, raw or as a character reference. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function xmlChar(code: number): string {
  const char = code <= 0x10ffff ? String.fromCodePoint(code) : '\u0000';
  if (NOT_XML_CHAR.test(char)) {
    throw new Error(`not well-formed: character reference to U+${code.toString(16).toUpperCase()}`);
  }
  return char;
}

function decode(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);/gi, (_whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) {
      return xmlChar(parseInt(entity.slice(2), 16));
    }
    if (entity.startsWith('#')) {
      return xmlChar(Number(entity.slice(1)));
    }
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[entity.toLowerCase()] as string;
  });
}

const BARE_AMPERSAND = /&(?!(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);)/i;

export function parseXml(source: string): XmlElement {
  const forbidden = NOT_XML_CHAR.exec(source);
  if (forbidden) {
    throw new Error(`not well-formed: U+${forbidden[0].codePointAt(0)?.toString(16).toUpperCase()} at ${forbidden.index}`);
  }
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  const token = /<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<\/([A-Za-z][\w:.-]*)\s*>|<([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/g;
  let position = 0;
  for (let match = token.exec(source); match; match = token.exec(source)) {
    if (match.index !== position) {
      throw new Error(`malformed XML at ${position}: ${source.slice(position, position + 40)}`);
    }
    position = token.lastIndex;
    const [whole, closing, opening, attributeText, selfClosing, text] = match;
    const top = stack[stack.length - 1];
    if (closing) {
      if (top.name !== closing) {
        throw new Error(`</${closing}> closes <${top.name}>`);
      }
      stack.pop();
    } else if (opening) {
      const attributes: Record<string, string> = {};
      for (const [, name, value] of attributeText.matchAll(/([\w:.-]+)="([^"]*)"/g)) {
        if (BARE_AMPERSAND.test(value)) {
          throw new Error(`bare & in attribute ${name}: ${value}`);
        }
        if (name in attributes) {
          throw new Error(`attribute ${name} repeated on <${opening}>`);
        }
        attributes[name] = decode(value);
      }
      const element: XmlElement = { name: opening, attributes, children: [], text: '' };
      top.children.push(element);
      if (!selfClosing) {
        stack.push(element);
      }
    } else if (text !== undefined) {
      if (BARE_AMPERSAND.test(text)) {
        throw new Error(`bare & in text: ${text}`);
      }
      top.text += decode(text);
    } else if (!whole.startsWith('<?') && !whole.startsWith('<!--')) {
      throw new Error(`unexpected ${whole}`);
    }
  }
  if (position !== source.length || stack.length !== 1) {
    throw new Error('unterminated XML');
  }
  return root;
}

/** Every element of that name, depth first. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const child of element.children) {
    if (child.name === name) {
      found.push(child);
    }
    found.push(...findAll(child, name));
  }
  return found;
}

/** A polygon's `points` as numbers. */
export function polygonPoints(element: XmlElement): Array<{ x: number; z: number }> {
  return element.attributes.points
    .trim()
    .split(/\s+/)
    .map((pair) => {
      const [x, z] = pair.split(',').map(Number);
      return { x, z };
    });
}
