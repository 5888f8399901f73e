//! The converter on the shapes real pages have, and on pages built to break it.

use super::{MAX_OUTPUT, MAX_PREFIX, convert};

fn md(html: &str) -> String {
    convert(html).text
}

#[test]
fn blocks_and_inline_text_read_as_markdown() {
    let html = "<!doctype html><html><head><title>T</title><meta charset=utf-8>\
        <script>var SCRIPT = '<p>no</p>';</script><style>p { color: red }</style></head>\
        <body><nav><ul><li><a href='/'>NAV</a></li></ul></nav>\
        <h1>Getting   started</h1>\
        <p>Read the <a href=\"/docs\">project</a> docs &mdash; <em> good </em>and<strong></strong> short.<br>Next line.</p>\
        <hr><div>In a div<div>nested</div>tail</div>\
        <p>Inline <code>x &lt; y</code>, <a href=\"javascript:void(0)\">a script link</a>, \
        <a href=\"/icon\"><img src=\"i.png\"></a>an icon, <img src=\"/logo.png\" alt=\" The  logo \">.</p>\
        <form><input name=q><button>Go</button></form><footer>&copy; 2026</footer></body></html>";
    assert_eq!(
        md(html),
        "# Getting started\n\n\
         Read the [project](/docs) docs — *good* and short.\nNext line.\n\n\
         ---\n\n\
         In a div\n\nnested\n\ntail\n\n\
         Inline `x < y`, a script link, an icon, ![The logo](/logo.png).\n\n\
         © 2026"
    );
}

#[test]
fn a_space_at_the_edge_of_an_inline_element_stays_outside_its_markers() {
    assert_eq!(
        md("<p>Click<a href=\"/x\"> here</a> now, foo<em> bar</em>baz<b>qux </b>end"),
        "Click [here](/x) now, foo *bar*baz**qux** end"
    );
}

#[test]
fn elements_without_content_write_nothing_and_keep_the_breaks_around_them() {
    // A logo link with no alt text in a heading; an empty item; an icon at a paragraph's end.
    assert_eq!(
        md("<h1><a href=\"/\"><img src=logo.png></a></h1><main><h2>Intro</h2><p>Welcome"),
        "## Intro\n\nWelcome"
    );
    assert_eq!(md("<ul><li></li><li>b</li></ul>"), "- b");
    assert_eq!(
        md("<p>Call us <i class=\"fa fa-phone\"></i></p><p>Next</p>"),
        "Call us\n\nNext"
    );
    assert_eq!(md("<p>Some text<br><hr>More"), "Some text\n\n---\n\nMore");
}

#[test]
fn lists_nest_by_indentation_and_items_end_where_html_ends_them() {
    let html =
        "<ul><li>one<li>two<ol><li>two.a</li><li><p>two.b</p></ol></li><li>three</ul><p>after</p>";
    assert_eq!(
        md(html),
        "- one\n- two\n  1. two.a\n  2. two.b\n- three\n\nafter"
    );
    // An item whose first content is a list: its marker on a line of its own.
    assert_eq!(md("<ul><li><ul><li>inner</ul></ul>"), "-\n  - inner");
}

#[test]
fn quotes_code_blocks_and_tables_keep_their_shape() {
    let html = "<blockquote><p>Quoted.</p><p>More.</p></blockquote>\
        <pre><code class=\"language-rust\">\nfn main() {\n    println!(\"&lt;hi&gt;\");\n}\n</code></pre>\
        <table><thead><tr><th>Name<th>Value</thead><tbody><tr><td>a<td>1<tr><td>b<br>c</td><td><p>2</p></td></tbody></table>";
    assert_eq!(
        md(html),
        "> Quoted.\n>\n> More.\n\n\
         ```rust\nfn main() {\n    println!(\"<hi>\");\n}\n```\n\n\
         | Name | Value |\n| --- | --- |\n| a | 1 |\n| b c | 2 |"
    );
}

#[test]
fn preformatted_text_has_no_markup_inside_its_fence() {
    // A server's directory listing, highlighted code, and the language on `<pre>` itself.
    assert_eq!(
        md("<pre><a href=\"../\">../</a>\n<a href=\"foo/\">foo/</a>  01-Jan-2026</pre>"),
        "```\n../\nfoo/  01-Jan-2026\n```"
    );
    assert_eq!(
        md(
            "<pre class=\"language-sh\"><b>$</b> <span class=k>ls</span> <img alt=\"icon\" src=i.png></pre>"
        ),
        "```sh\n$ ls icon\n```"
    );
}

#[test]
fn a_table_in_a_cell_is_flattened_and_a_bar_in_a_cell_escaped() {
    assert_eq!(
        md("<table><tr><td><table><tr><td>A<td>B<tr><td>C</table></td><td>x | y</td></tr></table>"),
        "| A B C | x \\| y |\n| --- | --- |"
    );
}

#[test]
fn end_tags_inside_a_skipped_element_do_not_close_what_is_outside_it() {
    assert_eq!(
        md("<ul><li>Docs<nav><ul><li>A</li><li>B</li></ul></nav> more</li><li>next</ul>"),
        "- Docs more\n- next"
    );
    // A form is content (ASP.NET pages wrap the whole body in one).
    assert_eq!(md("<form><p>All of it</p></form>"), "All of it");
}

#[test]
fn a_head_without_its_end_tag_ends_where_the_body_starts() {
    assert_eq!(
        md("<html><head><title>T</title><link rel=x>Body text<p>more"),
        "Body text\n\nmore"
    );
    assert_eq!(md("<head><title>T</title><body><p>shown"), "shown");
    assert_eq!(md("\u{feff}<p>no mark"), "no mark");
}

#[test]
fn deep_nesting_is_bounded_in_time_indentation_and_output() {
    let deep = "<div>".repeat(20_000) + "DEEP-TEXT";
    assert_eq!(md(&deep), "DEEP-TEXT");
    let lists = "<ul><li>x".repeat(2_000) + "<br>end";
    let out = md(&lists);
    let last = out.lines().last().unwrap();
    assert_eq!(last.trim_start(), "end");
    assert!(last.len() <= MAX_PREFIX + "end".len(), "{last:?}");
    let big = "<ul><li>x".repeat(200) + &"a<br>".repeat(400_000);
    let converted = convert(&big);
    assert!(converted.full);
    assert!(converted.text.len() <= MAX_OUTPUT + 64);
    // Preformatted lines under quotes, each with its prefix: the bound holds per line.
    let pre = "<blockquote>".repeat(16) + "<pre>x" + &"\n".repeat(2_000_000);
    let converted = convert(&pre);
    assert!(converted.full);
    assert!(converted.text.len() <= MAX_OUTPUT + 64);
}

/// Tag soup (every open and close in any order, broken tags and references) converts
/// without a panic.
#[test]
fn tag_soup_never_panics() {
    const PARTS: &[&str] = &[
        "<b>",
        "</b>",
        "<a href=x>",
        "</a>",
        "<li>",
        "</li>",
        "<ul>",
        "</ul>",
        "<ol>",
        "</ol>",
        "<pre>",
        "</pre>",
        "<code class='language-x'>",
        "</code>",
        "<table>",
        "<tr>",
        "<td>",
        "</td>",
        "</tr>",
        "</table>",
        "<blockquote>",
        "</blockquote>",
        "<p>",
        "</p>",
        "<br>",
        "<hr>",
        "<img alt=é src=y>",
        "word ",
        " \n ",
        "é€",
        "<head>",
        "<body>",
        "<script>",
        "</script>",
        "<nav>",
        "</nav>",
        "<h3>",
        "</h3>",
        "&amp;",
        "<",
        ">",
        "</",
        "<!--",
        "-->",
        "\u{a0}",
        "&#x1F600;",
        "&bogus;",
        "<em>",
        "</em>",
        "<th>",
        "|",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        usize::try_from(seed % 1_000_003).unwrap()
    };
    for _ in 0..5_000 {
        let n = next() % 60;
        let html: String = (0..n).map(|_| PARTS[next() % PARTS.len()]).collect();
        let _ = convert(&html);
    }
}

#[test]
fn an_empty_svg_or_math_element_hides_nothing_after_it() {
    assert_eq!(
        md("<p>Icon <svg class=i width=12 /> then text</p><h2>After</h2>"),
        "Icon then text\n\n## After"
    );
    assert_eq!(
        md("<svg viewBox=\"0 0 1 1\"><title/><style/><path d=\"M0\"/><script/></svg><p>after"),
        "after"
    );
    assert_eq!(md("<p>x <math display=inline /> y"), "x y");
    // HTML's own elements ignore `/>`: a `<script/>` still opens a script.
    assert_eq!(md("<script/>hidden();</script><p>shown"), "shown");
}

#[test]
fn code_task_lists_and_numbered_lists_keep_what_they_mean() {
    assert_eq!(
        md("<code>let <b>x</b> = <a href=\"/r\">Ref</a>;</code>"),
        "`let x = Ref;`"
    );
    assert_eq!(
        md(
            "<ul><li><input type=checkbox checked disabled> done<li><input type=\"CHECKBOX\"> todo</ul>"
        ),
        "- [x] done\n- [ ] todo"
    );
    assert_eq!(md("<ol start=4><li>four<li>five</ol>"), "4. four\n5. five");
    // A code block in a table cell joins the cell's text instead of splitting the row.
    assert_eq!(
        md("<table><tr><td>a<pre><code>x || y\nz</code></pre></td><td>b</td></tr></table>"),
        "| a `x \\|\\| y z` | b |\n| --- | --- |"
    );
}

#[test]
fn a_title_is_decoded_as_the_tokenizer_reads_one() {
    assert_eq!(
        super::decode("Vec in std::vec &#8211; Rust &middot; Jane&#x27;s &amp; <b>"),
        "Vec in std::vec – Rust · Jane's & <b>"
    );
}

#[test]
fn what_the_page_does_not_show_is_not_written() {
    let html = concat!(
        "<h2><a aria-hidden=\"true\" href=\"#x\"><svg/></a>Examples</h2>",
        "<div role=navigation><ul><li>Index</ul></div><div hidden>Can't do that</div>",
        "<p>Shown <span aria-hidden=true>§</span>here</p>",
        "<h2 id=i>Implementations<a href=\"#i\" class=\"doc-anchor\">§</a></h2>",
        "<h3>json<a class=headerlink href=\"#json\">¶</a></h3>",
        // A paragraph's end tag may be left out: one marked hidden is shown, not the rest hid.
        "<p hidden>A paragraph left open is shown<p>and so is the rest",
    );
    assert_eq!(
        md(html),
        "## Examples\n\nShown here\n\n## Implementations\n\n### json\n\nA paragraph left open is shown\n\nand so is the rest"
    );
}
