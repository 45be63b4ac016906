import { createRequire } from 'node:module';

/** The part of fast-xml-parser's API this module uses. */
interface FastXmlParser {
  XMLParser: new (options: Record<string, unknown>) => { parse(text: string): unknown };
  XMLValidator: {
    validate(text: string): true | { err: { code: string; msg: string; line: number; col: number } };
  };
}

/** XML that could not be read: not well-formed, or no XML parser installed. */
export class XmlError extends Error {
  override name = 'XmlError';
}

let loaded: FastXmlParser | null = null;

function load(): FastXmlParser {
  if (loaded !== null) return loaded;
  try {
    // Loaded on first use, so lcov and Istanbul reports read without the XML parser installed.
    loaded = createRequire(import.meta.url)('fast-xml-parser') as FastXmlParser;
  } catch (error) {
    throw new XmlError(
      `reading XML needs the fast-xml-parser package; install it (${(error as Error).message.split('\n')[0]})`,
    );
  }
  return loaded;
}

export interface ParseXmlOptions {
  /** Element names that always parse to an array, even when there is one of them. */
  arrays: readonly string[];
}

/**
 * Parses well-formed XML into plain objects: attributes as `@name` keys, children by element name.
 * XML's own entities are expanded; nothing a DOCTYPE names is ever fetched.
 */
export function parseXml(text: string, options: ParseXmlOptions): Record<string, unknown> {
  const { XMLParser, XMLValidator } = load();
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new XmlError(`not well-formed XML at line ${valid.err.line}: ${valid.err.msg}`);
  }
  const arrays = new Set(options.arrays);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseAttributeValue: false,
    isArray: (name: string) => arrays.has(name),
  });
  try {
    return parser.parse(text) as Record<string, unknown>;
  } catch (error) {
    // e.g. a DOCTYPE naming an external entity: refused, never fetched.
    throw new XmlError(`cannot read the XML: ${(error as Error).message}`);
  }
}
