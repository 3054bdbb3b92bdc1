// Writes a representation in the chosen format. The layer adds the XML declaration.
import type { Representation, RequestContext } from '../resource/types.ts';
import { XML_DECLARATION } from './markup.ts';

export function renderRepresentation(representation: Representation<unknown>, ctx: RequestContext): string {
  const { model, view } = representation;
  switch (ctx.format) {
    case 'html':
      return view.html(model, ctx).text;
    case 'xml':
      return XML_DECLARATION + view.xml(model, ctx).text + '\n';
    case 'json':
      return JSON.stringify(view.json(model, ctx));
    case 'ris':
    case 'bib':
      return extra(view[ctx.format], ctx.format)(model, ctx);
    case 'atom':
      return XML_DECLARATION + extra(view.atom, 'atom')(model, ctx).text + '\n';
  }
}

/** A resource offers an extra format only with a view for it (ResourceDefinition.formats). */
function extra<T>(write: T | undefined, format: string): T {
  if (write === undefined) throw new Error(`the representation has no ${format} view`);
  return write;
}
