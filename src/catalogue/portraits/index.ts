// The portraits folder's public surface: other folders import it from here only (docs/architecture.md).
export { initialsOfName, initialsOfSlug, portraitSvg, silhouetteSvg } from './portrait.ts';
