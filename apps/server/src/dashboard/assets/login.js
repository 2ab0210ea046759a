// Opening a sign-in link signs in at once: the form posts the link back (the POST is what uses it up).
// Coming back to this page with the Back button does not post a used link again.
const [navigation] = performance.getEntriesByType('navigation');
if (navigation?.type !== 'back_forward') document.getElementById('login-form')?.requestSubmit();
