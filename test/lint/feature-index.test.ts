// The feature-index rule of eslint.config.js (docs/architecture.md, "Feature folders"): another
// folder reaches a catalogue feature through its index.ts only, in every form of import; files
// inside the feature, and test/ and bench/, may import its parts.
import { at, projectRule, ruleTester } from '../kit/lint/rule-tester.ts';

const featureIndexRule = await projectRule('featureIndexRule');

ruleTester.run('shelfmark/feature-index', featureIndexRule, {
  valid: [
    { filename: at('src/catalogue/loans/resource.ts'), code: "import { x } from '../holds/index.ts';" },
    { filename: at('src/catalogue/loans/resource.ts'), code: "import { x } from './store.ts';" },
    { filename: at('src/catalogue/loans/resource.test.ts'), code: "import { x } from './model.ts';" },
    { filename: at('src/catalogue/index.ts'), code: "export { x } from './persons/index.ts';" },
    { filename: at('src/catalogue/routes.ts'), code: "import { x } from './tables.ts';" },
    { filename: at('src/main.ts'), code: "import { x } from './catalogue/accounts/index.ts';" },
    {
      filename: at('src/catalogue/works/store.ts'),
      code: "import { x } from '../../http/resource/types.ts';",
    },
    { filename: at('src/catalogue/works/store.ts'), code: "import { sql } from 'kysely';" },
    { filename: at('test/kit/app.ts'), code: "import { x } from '../../src/catalogue/loans/store.ts';" },
    { filename: at('bench/catalogue.ts'), code: "import { x } from '../src/catalogue/demo/load.ts';" },
  ],
  invalid: [
    [
      'src/catalogue/loans/resource.ts',
      "import { x } from '../holds/read.ts';",
      'src/catalogue/holds/read.ts',
    ],
    [
      'src/catalogue/loans/view.test.ts',
      "import { X } from '../shared/urls.ts';",
      'src/catalogue/shared/urls.ts',
    ],
    [
      'src/catalogue/index.ts',
      "export { x } from './persons/resource.ts';",
      'src/catalogue/persons/resource.ts',
    ],
    ['src/catalogue/stores.ts', "export * from './loans/store.ts';", 'src/catalogue/loans/store.ts'],
    ['src/catalogue/desk/zz.ts', "const m = import('../loans/renew.ts');", 'src/catalogue/loans/renew.ts'],
    ['src/main.ts', "import { x } from './catalogue/accounts/store.ts';", 'src/catalogue/accounts/store.ts'],
    [
      'src/cli/user.ts',
      "import '../catalogue/migrations/0001-catalogue.ts';",
      'src/catalogue/migrations/0001',
    ],
    // An index.ts one level down is a part too: only the feature's own index is its surface.
    [
      'src/catalogue/works/zz.ts',
      "import { x } from '../oai/deep/index.ts';",
      'src/catalogue/oai/deep/index.ts',
    ],
  ].map(([file, code, target]) => ({
    filename: at(file!),
    code: code!,
    errors: [{ message: new RegExp(`through its index\\.ts, not ${target!.replaceAll('.', '\\.')}`) }],
  })),
});
