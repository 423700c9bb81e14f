// Larkspur Market: takes the token of an approved card payment from the
// Sandpiper Pay iframe, puts it in the order form and enables Place order.
// Hand-written for the contractbench sandbox.
(function () {
  var token = document.getElementById('token');
  var place = document.getElementById('place');
  var status = document.getElementById('pay-status');
  if (!token || !place) return;
  window.addEventListener('message', function (e) {
    var host;
    try { host = new URL(e.origin).hostname; } catch (err) { return; }
    var d = e.data;
    if (host !== 'pay.sandbox.test' || !d || d.type !== 'sandpiper-payment' || d.status !== 'approved' || typeof d.token !== 'string') return;
    token.value = d.token;
    place.disabled = false;
    status.textContent = 'Card payment approved (card ending ' + d.last4 + '). You can now place the order.';
  });
})();
