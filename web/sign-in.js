/** The sign-in form: the key goes to the server once and is exchanged for a session cookie. */
const form = document.getElementById('sign-in-form');
const input = /** @type {HTMLInputElement} */ (document.getElementById('api-key'));
const error = document.getElementById('sign-in-error');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  const apiKey = input.value.trim();
  if (!apiKey) {
    error.textContent = 'Paste the API key.';
    input.focus();
    return;
  }
  const res = await fetch('/app/api/session', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ api_key: apiKey }),
  });
  input.value = '';
  if (res.ok) {
    location.assign('/app');
    return;
  }
  const body = await res.json().catch(() => ({}));
  error.textContent = body.error?.message ?? 'Sign-in failed.';
  input.focus();
});
