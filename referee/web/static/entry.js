// A seat's page with taps (progressive enhancement): tap a token, tap its province on the board, then tap one
// of the places the referee accepts for it there ("@" or a border); that tap sends the page's own Add form,
// so the server checks it exactly as a form filled by hand. Without this script the form works alone.
(function () {
  "use strict";
  var taps = document.getElementById("taps");
  var form = document.getElementById("add");
  var board = document.getElementById("board");
  var more = document.getElementById("tap-more");
  if (!taps || !form || !board || !more || !window.fetch) {
    return;
  }
  var step = document.getElementById("step");
  var places = document.getElementById("tap-places");
  var token = "";
  var province = "";
  var asked = 0;

  function say(text) {
    step.textContent = text;
  }

  function provinceOf(node) {
    var el = node;
    while (el && el !== board) {
      if (el.getAttribute && el.getAttribute("data-province")) {
        return el.getAttribute("data-province");
      }
      if (el.getAttribute && el.getAttribute("data-territory") && el.id) {
        return el.id;
      }
      el = el.parentNode;
    }
    return "";
  }

  function mark(pid) {
    var all = board.querySelectorAll("[data-province]");
    for (var i = 0; i < all.length; i += 1) {
      all[i].classList.toggle("picked", all[i].getAttribute("data-province") === pid);
    }
  }

  function clearPlaces() {
    while (places.firstChild) {
      places.removeChild(places.firstChild);
    }
  }

  function send(source) {
    form.elements.token.value = token;
    form.elements.to.value = province;
    form.elements.from.value = source;
    if (form.elements.blessing) {
      form.elements.blessing.value = "";
    }
    say("Adding " + token + "…");
    form.submit();
  }

  function offer(answer) {
    clearPlaces();
    if (!answer.places.length) {
      say(answer.refused || "Not there: tap another province.");
      step.scrollIntoView({block: "center"});  // the reason where the player looks, not above the board
      return;
    }
    say("Tap where " + token + " goes in " + province + ":");
    answer.places.forEach(function (p) {
      var li = document.createElement("li");
      var b = document.createElement("button");
      b.type = "button";
      b.setAttribute("data-from", p.from);
      b.textContent = p.from ? "from " + p.from + " >" : "@ " + province;
      b.setAttribute("aria-label", "Add " + p.line);
      b.addEventListener("click", function () {
        send(p.from);
      });
      li.appendChild(b);
      places.appendChild(li);
    });
    places.scrollIntoView({block: "nearest"});
  }

  function ask() {
    asked += 1;
    var mine = asked;
    var url = taps.getAttribute("data-places") + "?token=" + encodeURIComponent(token) +
      "&to=" + encodeURIComponent(province);
    say("Checking " + token + " in " + province + "…");
    fetch(url, {credentials: "same-origin", cache: "no-store"}).then(function (r) {
      return r.ok ? r.json() : {places: [], refused: "The page is out of date: reload it."};
    }).then(function (answer) {
      if (mine === asked) {
        offer(answer);
      }
    }).catch(function () {
      say("No answer from the referee: try again, or use the form.");
    });
  }

  taps.addEventListener("click", function (event) {
    var b = event.target.closest ? event.target.closest("button[data-token]") : null;
    if (!b) {
      return;
    }
    var chips = taps.querySelectorAll("button[data-token]");
    for (var i = 0; i < chips.length; i += 1) {
      chips[i].setAttribute("aria-pressed", chips[i] === b ? "true" : "false");
    }
    token = b.getAttribute("data-token");
    clearPlaces();
    if (province) {
      ask();
    } else {
      say("Tap the province for " + token + " on the board.");
    }
  });

  board.addEventListener("click", function (event) {
    var pid = provinceOf(event.target);
    if (!pid) {
      return;
    }
    province = pid;
    mark(pid);
    if (token) {
      ask();
    } else {
      say(pid + ": now tap a token.");
    }
  });

  document.getElementById("tap-form").addEventListener("click", function () {
    taps.hidden = true;
    more.hidden = true;
    form.hidden = false;
  });

  taps.hidden = false;
  more.hidden = false;
  form.hidden = true;
})();
