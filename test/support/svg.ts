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

function decode(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);/gi, (_whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) {
      return String.fromCodePoint(parseInt(entity.slice(2), 16));
    }
    if (entity.startsWith('#')) {
      return String.fromCodePoint(Number(entity.slice(1)));
    }
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[entity.toLowerCase()] as string;
  });
}

export function parseXml(source: string): XmlElement {
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
      if (/&(?!(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);)/i.test(text)) {
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
