import { describe, expect, it } from 'vitest';
import { loadDashboardAssets } from './assets.js';
import { settingsPage, SETTINGS_NAV } from './settings-layout.js';

describe('the Settings layout', () => {
  const assets = loadDashboardAssets();

  it('puts every page of the nav in it, the current one marked, around the page content', () => {
    const html = settingsPage(assets, { path: '/settings/activity', title: 'Activity', content: 'activity.html', script: 'activity.js' });
    for (const entry of SETTINGS_NAV) expect(html).toContain(`href="/dashboard${entry.path}"`);
    expect(html.match(/aria-current="page"/g)).toHaveLength(2); // the nav entry and the breadcrumb
    expect(html).toContain('<li><a href="/dashboard/settings/activity" aria-current="page">Activity</a></li>');
    expect(html).toContain('<title>Activity · Settings · Customers API</title>');
    expect(html).toContain('<h1 id="page-title">Activity</h1>');
    expect(html).toContain('<script type="module" src="/dashboard/assets/activity.js"></script>');
    expect(html).toContain('id="activity-table"');
    expect(html).toContain('<div id="toasts" class="toasts" role="status" aria-live="polite"></div>');
    expect(html).not.toContain('<!-- content -->');
    expect(html).not.toContain('{{');
  });

  it('escapes the title and inserts the content as it is, even with replacement patterns in it', () => {
    const html = settingsPage(assets, { path: '/settings/api-keys', title: 'Keys & <more>', content: 'keys.html', script: 'keys.js' });
    expect(html).toContain('<h1 id="page-title">Keys &amp; &lt;more&gt;</h1>');
    expect(html).toContain(assets.get('keys.html')!.body.toString('utf8'));
  });

  it("puts a page of one item under its parent's nav entry and breadcrumb, with its own stylesheet", () => {
    const html = settingsPage(assets, {
      path: '/settings/webhooks/:id',
      title: 'Webhook endpoint',
      content: 'endpoint.html',
      script: 'endpoint.js',
      stylesheet: 'webhooks.css',
      parent: { path: '/settings/webhooks', title: 'Webhooks' },
    });
    expect(html).toContain('<li><a href="/dashboard/settings/webhooks" aria-current="page">Webhooks</a></li>');
    expect(html).toContain('<ol><li>Settings</li><li><a href="/dashboard/settings/webhooks">Webhooks</a></li><li><span aria-current="page">Webhook endpoint</span></li></ol>');
    expect(html).toContain('<title>Webhook endpoint · Webhooks · Settings · Customers API</title>');
    expect(html).toContain('<link rel="stylesheet" href="/dashboard/assets/webhooks.css">');
    expect(html).not.toContain('<!--');
    expect(html).not.toContain('{{');
  });

  it('shows the test/live switch on every page; the test view has the banner and keeps ?mode=test on every link', () => {
    const page = { path: '/settings/activity', title: 'Activity', content: 'activity.html', script: 'activity.js' };
    const live = settingsPage(assets, page);
    expect(live).toContain('<button type="submit" name="mode" value="test" class="button" id="mode-switch">View test data</button>');
    expect(live).not.toContain('test-banner');
    expect(live).not.toContain('mode=test');
    const test = settingsPage(assets, page, 'test');
    expect(test).toContain('<button type="submit" name="mode" value="live" class="button" id="mode-switch">View live data</button>');
    expect(test).toContain('<strong>Viewing test data.</strong>');
    for (const entry of SETTINGS_NAV) expect(test).toContain(`href="/dashboard${entry.path}?mode=test"`);
    expect(test).toContain('<li><a href="/dashboard/settings/activity?mode=test" aria-current="page">Activity</a></li>');
    expect(test).not.toContain('<!-- mode');
  });
});
