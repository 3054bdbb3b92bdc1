// A list's facets in its three formats (ADR 0094, 0099; the persons list's, ADR 0102): per facet its values with
// their counts and the URL that chooses each too (keeping the search, its order, the page size,
// the other filters and the format, from the first page); every value chosen with the URL that
// lifts it.
import type { RequestContext } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { keepFormat } from '../../http/rewrite/index.ts';
import { strings } from '../i18n/index.ts';
import { FACET_NAMES, type FacetName, type WorkFacetFilters, type WorkFacets } from '../model.ts';
import { pagePath, PERSONS_PATH, WORKS_PATH, type ListQuery } from '../shared/index.ts';
import { fullName } from '../shared/index.ts';
import { FACET_SAMPLE, LIST_FACETS, type FacetedList } from './facets.ts';
import { inCanonicalOrder } from './facet-query.ts';

export interface FacetEntry {
  readonly value: string;
  readonly count: number;
  /** The person's name, the item type's names; decades and availability are named by the view. */
  readonly names?: { readonly de: string; readonly en: string };
  readonly selected: boolean;
  /** The list's first page with this value chosen too (OR within its facet, ADR 0099). */
  readonly path: string;
  /** A chosen value: the list's first page without it. */
  readonly removePath?: string;
}

export interface FacetsModel {
  /** The list the facets narrow (its group titles). */
  readonly list: FacetedList;
  /** Counted over every match; otherwise over the first FACET_SAMPLE (lower bounds). */
  readonly exact: boolean;
  readonly groups: readonly { readonly name: FacetName; readonly values: readonly FacetEntry[] }[];
  /** Every value chosen, each with the list's first page without it. */
  readonly applied: readonly {
    readonly name: FacetName;
    readonly value: string;
    readonly removePath: string;
  }[];
}

const LIST_PATHS: Record<FacetedList, string> = { works: WORKS_PATH, persons: PERSONS_PATH };

export function facetsModel(
  query: ListQuery,
  facets: WorkFacets | undefined,
  ctx: Pick<RequestContext, 'format' | 'formatSource'>,
  list: FacetedList = 'works',
): FacetsModel | undefined {
  if (facets === undefined) return undefined;
  const first = (filters: WorkFacetFilters) => {
    const { after: _a, before: _b, ...rest } = query;
    const path = pagePath(LIST_PATHS[list], { ...rest, facets: filters });
    return keepFormat(path, ctx.format, ctx.formatSource);
  };
  const current = query.facets ?? {};
  const chosen = (name: FacetName): readonly string[] => (current[name] ?? []).map(String);
  /** The filters with `value` of `name` chosen too, or (`lift`) without it; canonical order kept. */
  const changed = (name: FacetName, value: string, lift: boolean): WorkFacetFilters => {
    const others = chosen(name).filter((v) => v !== value);
    const values = lift ? others : inCanonicalOrder(name, [...others, value]);
    const { [name]: _old, ...rest } = current;
    return values.length === 0 ? rest : { ...rest, [name]: name === 'dekade' ? values.map(Number) : values };
  };
  const entry = (name: FacetName, value: string | number, count: number, names?: FacetEntry['names']) => {
    const selected = chosen(name).includes(String(value));
    return {
      value: String(value),
      count,
      ...(names && { names }),
      selected,
      path: first(changed(name, String(value), false)),
      ...(selected && { removePath: first(changed(name, String(value), true)) }),
    };
  };
  const offered = LIST_FACETS[list];
  const groups: FacetsModel['groups'] = [
    {
      name: 'autor',
      values: facets.autor.map((p) => entry('autor', p.slug, p.count, { de: fullName(p), en: fullName(p) })),
    },
    { name: 'dekade', values: facets.dekade.map((d) => entry('dekade', d.value, d.count)) },
    { name: 'verfuegbar', values: facets.verfuegbar.map((v) => entry('verfuegbar', v.value, v.count)) },
    {
      name: 'medientyp',
      values: facets.medientyp.map((t) =>
        entry('medientyp', t.value, t.count, { de: t.name_de, en: t.name_en }),
      ),
    },
  ];
  return {
    list,
    exact: facets.exact,
    groups: groups.filter((g) => offered.includes(g.name)),
    applied: FACET_NAMES.filter((name) => offered.includes(name)).flatMap((name) =>
      chosen(name).map((value) => ({ name, value, removePath: first(changed(name, value, true)) })),
    ),
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

function groupTitle(name: FacetName, list: FacetedList, ctx: RequestContext): string {
  const t = strings(ctx.lang);
  // A person's decades are those of its works.
  if (list === 'persons' && name === 'dekade') return t.facetWorkDecade;
  return {
    autor: t.facetAuthor,
    dekade: t.facetDecade,
    verfuegbar: t.facetAvailability,
    medientyp: t.facetItemType,
  }[name];
}

/**
 * The sidebar: a list of links per facet. A chosen value is marked (`aria-current`) with a link
 * that lifts it; every other value's link chooses it too (OR within the facet, ADR 0099). A
 * chosen value the counts did not reach (past their sample, or matching nothing) is listed first,
 * without a count.
 */
export function facetsHtml(m: FacetsModel | undefined, ctx: RequestContext): Markup {
  if (m === undefined) return html``;
  const t = strings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const groups = m.groups.filter((g) => g.values.length > 0 || m.applied.some((a) => a.name === g.name));
  if (groups.length === 0) return html``;
  const count = (n: number) =>
    html` <span class="count">${m.exact ? '' : '≥ '}${n.toLocaleString(ctx.lang)}</span>`;
  const chosenItem = (
    name: FacetName,
    v: { value: string; names?: FacetEntry['names'] },
    removePath: string,
    n?: number,
  ) => {
    const label = valueLabel(name, v, ctx);
    return html`<li class="applied">
      <span><strong aria-current="true">${label}</strong>${n === undefined ? '' : count(n)}</span>
      <a href="${rel(removePath)}" rel="nofollow" aria-label="${t.facetRemove(label)}" title="${t.facetRemove(label)}">×</a>
    </li>`;
  };
  return html`<aside class="facets" aria-label="${t.facetsLabel}">
    <h2>${t.facetsLabel}</h2>
    ${groups.map((g) => {
      const uncounted = m.applied.filter(
        (a) => a.name === g.name && !g.values.some((v) => v.value === a.value),
      );
      return html`<section>
        <h3>${groupTitle(g.name, m.list, ctx)}</h3>
        <ul>
          ${uncounted.map((a) => chosenItem(g.name, a, a.removePath))}
          ${g.values.map((v) =>
            v.selected && v.removePath !== undefined
              ? chosenItem(g.name, v, v.removePath, v.count)
              : html`<li><a href="${rel(v.path)}" rel="nofollow">${valueLabel(g.name, v, ctx)}</a>${count(v.count)}</li>`,
          )}
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
        xml`\n      <wert wert="${v.value}" anzahl="${v.count}" ref="${abs(v.path)}"${v.selected ? xml` gewaehlt="true"` : ''}${v.removePath ? xml` entfernen="${abs(v.removePath)}"` : ''}>${v.names?.de ?? v.value}</wert>`,
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
            ...(v.removePath && { entfernen: abs(v.removePath) }),
          })),
        ]),
      ),
    },
  };
}
