// The layering rule of eslint.config.js (docs/architecture.md): allowed directions pass, every
// forbidden one is reported, whatever form the import takes.
import { at, projectRule, ruleTester } from '../kit/lint/rule-tester.ts';

const layersRule = await projectRule('layersRule');

ruleTester.run('shelfmark/layers', layersRule, {
  valid: [
    { filename: at('src/catalogue/persons/store.ts'), code: "import { x } from '../../storage/index.ts';" },
    { filename: at('src/catalogue/persons/view.ts'), code: "import { x } from '../../http/index.ts';" },
    { filename: at('src/http/app/context.ts'), code: "import { x } from '../../logging/index.ts';" },
    { filename: at('src/http/app/context.ts'), code: "import { x } from '../errors/index.ts';" },
    { filename: at('src/http/errors/zz.ts'), code: "import { BusyError } from '../../storage/errors.ts';" },
    { filename: at('src/server/create-server.ts'), code: "import { x } from '../logging/index.ts';" },
    { filename: at('src/main.ts'), code: "import { x } from './catalogue/index.ts';" },
    { filename: at('src/cli/serve.ts'), code: "import { x } from '../main.ts';" },
    { filename: at('src/logging/error/describe.ts'), code: "import fs from 'node:fs';" },
    { filename: at('test/kit/app.ts'), code: "import { x } from '../../src/catalogue/index.ts';" },
  ],
  invalid: [
    [
      'src/http/app/zz.ts',
      "import { x } from '../../catalogue/index.ts';",
      'src/http must not import src/catalogue',
    ],
    [
      'src/http/app/zz.ts',
      "import { x } from '../../storage/index.ts';",
      'src/http must not import src/storage',
    ],
    [
      'src/http/app/zz.ts',
      "import { x } from '../../storage/keyset.ts';",
      'src/http must not import src/storage',
    ],
    ['src/http/app/zz.ts', "export * from '../../config/index.ts';", 'src/http must not import src/config'],
    ['src/logging/zz.ts', "export { x } from '../http/index.ts';", 'src/logging must not import src/http'],
    ['src/logging/zz.ts', "const m = import('../cli/user.ts');", 'src/logging must not import src/cli'],
    ['src/storage/zz.ts', "import '../logging/index.ts';", 'src/storage must not import src/logging'],
    ['src/server/zz.ts', "import { x } from '../http/index.ts';", 'src/server must not import src/http'],
    [
      'src/server/zz.ts',
      "import { x } from '../storage/index.ts';",
      'src/server must not import src/storage',
    ],
    [
      'src/server/zz.ts',
      "import { x } from '../catalogue/index.ts';",
      'src/server must not import src/catalogue',
    ],
    ['src/catalogue/zz.ts', "import { x } from '../cli/user.ts';", 'src/catalogue must not import src/cli'],
    [
      'src/config/zz.ts',
      "import { x } from '../logging/index.ts';",
      'src/config must not import src/logging',
    ],
  ].map(([file, code, message]) => ({
    filename: at(file!),
    code: code!,
    errors: [{ message: new RegExp(`^${message}`) }],
  })),
});
