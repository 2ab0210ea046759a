// @vitest-environment jsdom
import { testDomSuite } from './test-dom-suite';

testDomSuite('jsdom');
