// value.js is called on an element (this). It returns the text a field now
// holds: the value of an input or textarea, the text of a contenteditable.
function () {
  if ('value' in this && typeof this.value === 'string') return this.value;
  return this.innerText || '';
}
