// Opening a sign-in link signs in at once: the form posts the link back (the POST is what uses it up).
document.getElementById('login-form')?.requestSubmit();
