// The one script of the account page: a copy button beside a key shown once. Without it the key
// is still in a read-only field to select and copy by hand (the button stays hidden).
document.querySelectorAll('button[data-copy]').forEach((button) => {
  const field = document.getElementById(button.dataset.copy);
  const status = document.querySelector(`[data-copy-status="${button.dataset.copy}"]`);
  if (!field || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      if (status) status.textContent = 'Copied to the clipboard.';
    } catch {
      field.select();
      if (status) status.textContent = 'Select the key and copy it by hand.';
    }
  });
});
