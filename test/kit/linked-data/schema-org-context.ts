// A JSON-LD document loader for the tests: the processor never fetches anything. It knows one
// remote document, schema.org's context, as this minimal copy of its essentials: the vocabulary
// (every term is `http://schema.org/` + its name, as in the full context) and the terms whose
// values are IRIs there (`url`, `image`, `sameAs`, `availability`, `businessFunction`). Any
// other URL is an error, so a context the pages start to use cannot slip past unchecked.
import type { Options } from 'jsonld';

type DocumentLoader = NonNullable<Options.DocLoader['documentLoader']>;

export const SCHEMA_ORG_CONTEXT_DOCUMENT = {
  '@context': {
    '@vocab': 'http://schema.org/',
    schema: 'http://schema.org/',
    url: { '@id': 'schema:url', '@type': '@id' },
    image: { '@id': 'schema:image', '@type': '@id' },
    sameAs: { '@id': 'schema:sameAs', '@type': '@id' },
    availability: { '@id': 'schema:availability', '@type': '@id' },
    businessFunction: { '@id': 'schema:businessFunction', '@type': '@id' },
  },
};

const KNOWN = new Set([
  'https://schema.org',
  'https://schema.org/',
  'http://schema.org',
  'http://schema.org/',
]);

export const offlineDocumentLoader: DocumentLoader = async (url) => {
  if (!KNOWN.has(url)) throw new Error(`the tests load no remote document: ${url}`);
  return { contextUrl: undefined, documentUrl: url, document: SCHEMA_ORG_CONTEXT_DOCUMENT };
};
