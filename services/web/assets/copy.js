// The one script of the account page: a copy button beside a key or secret shown once. Without it
// the value is still on the page to select and copy by hand (the button stays hidden). A key sits
// in a read-only field, a webhook secret in a code block: the text is the field's value or the
// block's text.
document.querySelectorAll('button[data-copy]').forEach((button) => {
  const source = document.getElementById(button.dataset.copy);
  const status = document.querySelector(`[data-copy-status="${button.dataset.copy}"]`);
  if (!source || !navigator.clipboard) return;
  const isField = source instanceof HTMLInputElement;
  button.hidden = false;
  if (status && !isField) status.textContent = '';
  button.addEventListener('click', async () => {
    const text = isField ? source.value : (source.textContent ?? '').trim();
    try {
      await navigator.clipboard.writeText(text);
      if (status) status.textContent = 'Copied to the clipboard.';
    } catch {
      selectAll(source, isField);
      if (status) status.textContent = 'Select it and copy it by hand.';
    }
  });
});

function selectAll(source, isField) {
  if (isField) return source.select();
  const range = document.createRange();
  range.selectNodeContents(source);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}
