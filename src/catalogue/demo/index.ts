// Demo data: a believable public-domain catalogue, demo accounts, and a benchmark generator.
export { loadDemo, DEMO_ACCOUNTS, type DemoAccount, type DemoResult } from './load.ts';
export { generateWorks } from './generate.ts';
export { importSynthetic, syntheticPersonCount, syntheticRecords } from './synthetic.ts';
export { AUTHORS } from './authors.ts';
export { WORKS } from './works.ts';
