export { workRis } from './ris.ts';
export { workBibtex, escapeBibtex } from './bibtex.ts';
