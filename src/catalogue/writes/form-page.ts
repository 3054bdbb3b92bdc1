// The page that shows a write form again with its problems, sent with status 422 to clients
// that want HTML. Other formats never get it (they get problem details), but a View has three
// writers, so XML and JSON list the problems like the problem's `errors` member.
import type { RequestContext, View } from '../../http/resource/types.ts';
import { xml, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import type { FormState } from './form-html.ts';

export interface FormPage {
  readonly title: string;
  readonly main: Markup;
  readonly section: 'persons' | 'works';
  readonly state: FormState;
}

export function formPageView<M>(page: (model: M, ctx: RequestContext) => FormPage): View<M> {
  return {
    html: (m, ctx) => {
      const p = page(m, ctx);
      return layout({ title: p.title, main: p.main, section: p.section }, ctx);
    },
    xml: (m, ctx) =>
      xml`<errors>${page(m, ctx).state.problems.map(
        (p) => xml`<i><field>${p.field}</field><detail>${p.message}</detail></i>`,
      )}</errors>`,
    json: (m, ctx) => ({
      errors: page(m, ctx).state.problems.map((p) => ({ field: p.field, detail: p.message })),
    }),
  };
}
