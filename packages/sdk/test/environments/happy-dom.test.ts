// @vitest-environment happy-dom
import { testDomSuite } from './test-dom-suite';

testDomSuite('happy-dom');
