// The part of Citation.js (@citation-js/core with its BibTeX and RIS plugins) the citation tests
// use: parsing text into CSL-JSON items. The packages ship no type declarations.
declare module '@citation-js/core' {
  export interface CslName {
    readonly family?: string;
    readonly given?: string;
    readonly literal?: string;
  }
  export interface CslItem {
    readonly type?: string;
    readonly id?: string;
    readonly title?: string;
    readonly author?: readonly CslName[];
    readonly issued?: { readonly 'date-parts'?: readonly (readonly number[])[] };
    readonly URL?: string;
    readonly [field: string]: unknown;
  }
  export const plugins: {
    input: { chain(input: string, options?: { forceType?: string; generateGraph?: boolean }): CslItem[] };
  };
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-ris';
