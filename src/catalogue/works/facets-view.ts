// The works list's facets in its three formats (ADR 0094): per facet its values with their
// counts and the URL that applies each (keeping the search, its order, the page size, the other
// filters and the format, from the first page); the filters applied with the URL that lifts each.
import type { RequestContext } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { keepFormat } from '../../http/rewrite/index.ts';
import { strings } from '../i18n/index.ts';
import { FACET_NAMES, type FacetName, type WorkFacetFilters, type WorkFacets } from '../model.ts';
import { pagePath, type ListQuery } from '../shared/index.ts';
import { fullName } from '../shared/index.ts';
import { FACET_SAMPLE } from './facets.ts';

export interface FacetEntry {
  readonly value: string;
  readonly count: number;
  /** The person's name, the item type's names; decades and availability are named by the view. */
  readonly names?: { readonly de: string; readonly en: string };
  readonly selected: boolean;
  /** The list's first page with this value applied. */
  readonly path: string;
}

export interface FacetsModel {
  /** Counted over every match; otherwise over the first FACET_SAMPLE (lower bounds). */
  readonly exact: boolean;
  readonly groups: readonly { readonly name: FacetName; readonly values: readonly FacetEntry[] }[];
  /** The filters applied, each with the list's first page without it. */
  readonly applied: readonly {
    readonly name: FacetName;
    readonly value: string;
    readonly removePath: string;
  }[];
}

export function facetsModel(
  query: ListQuery,
  facets: WorkFacets | undefined,
  ctx: Pick<RequestContext, 'format' | 'formatSource'>,
): FacetsModel | undefined {
  if (facets === undefined) return undefined;
  const first = (filters: WorkFacetFilters) => {
    const { after: _a, before: _b, ...rest } = query;
    const path = pagePath('/werke', { ...rest, facets: filters });
    return keepFormat(path, ctx.format, ctx.formatSource);
  };
  const current = query.facets ?? {};
  const entry = (name: FacetName, value: string | number, count: number, names?: FacetEntry['names']) => ({
    value: String(value),
    count,
    ...(names && { names }),
    selected: current[name] !== undefined && String(current[name]) === String(value),
    path: first({ ...current, [name]: value }),
  });
  return {
    exact: facets.exact,
    groups: [
      {
        name: 'autor',
        values: facets.autor.map((p) =>
          entry('autor', p.slug, p.count, { de: fullName(p), en: fullName(p) }),
        ),
      },
      { name: 'dekade', values: facets.dekade.map((d) => entry('dekade', d.value, d.count)) },
      { name: 'verfuegbar', values: facets.verfuegbar.map((v) => entry('verfuegbar', v.value, v.count)) },
      {
        name: 'medientyp',
        values: facets.medientyp.map((t) =>
          entry('medientyp', t.value, t.count, { de: t.name_de, en: t.name_en }),
        ),
      },
    ],
    applied: FACET_NAMES.flatMap((name) => {
      const value = current[name];
      if (value === undefined) return [];
      const { [name]: _lifted, ...others } = current;
      return [{ name, value: String(value), removePath: first(others) }];
    }),
  };
}

function valueLabel(
  name: FacetName,
  entry: { value: string; names?: FacetEntry['names'] },
  ctx: RequestContext,
) {
  const t = strings(ctx.lang);
  if (entry.names) return entry.names[ctx.lang === 'en' ? 'en' : 'de'];
  if (name === 'dekade') return t.decade(Number(entry.value));
  if (name === 'verfuegbar') return entry.value === 'ja' ? t.availableNow : t.noneAvailable;
  return entry.value;
}

function groupTitle(name: FacetName, ctx: RequestContext): string {
  const t = strings(ctx.lang);
  return {
    autor: t.facetAuthor,
    dekade: t.facetDecade,
    verfuegbar: t.facetAvailability,
    medientyp: t.facetItemType,
  }[name];
}

/** The sidebar: a list of links per facet, the applied ones marked with a link that lifts them. */
export function facetsHtml(m: FacetsModel | undefined, ctx: RequestContext): Markup {
  if (m === undefined) return html``;
  const t = strings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const groups = m.groups.filter((g) => g.values.length > 0 || m.applied.some((a) => a.name === g.name));
  if (groups.length === 0) return html``;
  const count = (n: number) =>
    html` <span class="count">${m.exact ? '' : '≥ '}${n.toLocaleString(ctx.lang)}</span>`;
  return html`<aside class="facets" aria-label="${t.facetsLabel}">
    <h2>${t.facetsLabel}</h2>
    ${groups.map((g) => {
      const applied = m.applied.find((a) => a.name === g.name);
      const label = applied && valueLabel(g.name, g.values.find((v) => v.selected) ?? applied, ctx);
      return html`<section>
        <h3>${groupTitle(g.name, ctx)}</h3>
        <ul>
          ${
            applied
              ? html`<li class="applied">
                  <strong aria-current="true">${label}</strong>
                  <a href="${rel(applied.removePath)}" rel="nofollow" title="${t.facetRemove(label!)}">×</a>
                </li>`
              : g.values.map(
                  (v) =>
                    html`<li><a href="${rel(v.path)}" rel="nofollow">${valueLabel(g.name, v, ctx)}</a>${count(v.count)}</li>`,
                )
          }
        </ul>
      </section>`;
    })}
    ${m.exact ? '' : html`<p class="note">${t.facetsAtLeast(FACET_SAMPLE)}</p>`}
  </aside>`;
}

/** `<facetten>`: per facet its values (`wert`, `anzahl`, `ref` applying it); `<filter>` per applied one. */
export function facetsXml(m: FacetsModel | undefined, ctx: RequestContext): Markup | string {
  if (m === undefined) return '';
  const abs = (p: string) => ctx.links.absolute(p);
  const filters = m.applied.map(
    (a) => xml`\n  <filter facette="${a.name}" wert="${a.value}" entfernen="${abs(a.removePath)}"/>`,
  );
  const groups = m.groups.map(
    (g) => xml`\n    <facette name="${g.name}">${g.values.map(
      (v) =>
        xml`\n      <wert wert="${v.value}" anzahl="${v.count}" ref="${abs(v.path)}"${v.selected ? xml` gewaehlt="true"` : ''}>${v.names?.de ?? v.value}</wert>`,
    )}
    </facette>`,
  );
  return xml`${filters}\n  <facetten genau="${m.exact ? 'true' : 'false'}">${groups}\n  </facetten>`;
}

export function facetsJson(m: FacetsModel | undefined, ctx: RequestContext): Record<string, unknown> {
  if (m === undefined) return {};
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    ...(m.applied.length > 0 && {
      filter: m.applied.map((a) => ({ facette: a.name, wert: a.value, entfernen: abs(a.removePath) })),
    }),
    facetten: {
      genau: m.exact,
      ...Object.fromEntries(
        m.groups.map((g) => [
          g.name,
          g.values.map((v) => ({
            wert: v.value,
            ...(v.names && { name: v.names.de }),
            anzahl: v.count,
            url: abs(v.path),
            ...(v.selected && { gewaehlt: true }),
          })),
        ]),
      ),
    },
  };
}
