package dev.hipsim.isa.debug.symbols;

import java.util.ArrayList;
import java.util.List;

/**
 * A small Itanium C++ ABI demangler for the names HIP kernels and device functions get: nested and template names,
 * builtin, pointer, reference, const/volatile and function parameter types, substitutions and template parameters.
 * What it does not understand is returned unchanged ({@link #demangle} never fails), which is all a debugger needs
 * to show names and to match {@code break vadd} against {@code _Z4vaddPKfS0_Pfi}.
 */
public final class Demangler {
  /** A demangled function name: {@code name} without parameters (qualified), {@code full} with them. */
  public record Name(String name, String full) {}

  private final String s;
  private int p;
  private final List<String> subs = new ArrayList<>();
  private final List<String> templateArgs = new ArrayList<>();
  /** " const" / " volatile" of the member function whose nested name was read last. */
  private String memberQualifiers = "";
  /** The last source name read: the class a constructor or destructor belongs to. */
  private String lastSourceName = "";

  private Demangler(String s) {
    this.s = s;
  }

  /** The demangled name, or the symbol itself when it is not a mangled C++ name this demangler understands. */
  public static Name demangle(String symbol) {
    if (symbol == null || !symbol.startsWith("_Z")) return new Name(symbol, symbol);
    try {
      Demangler d = new Demangler(symbol);
      d.p = 2;
      return d.encoding();
    } catch (RuntimeException e) {
      return new Name(symbol, symbol);
    }
  }

  private Name encoding() {
    List<String> outerTemplateArgs = new ArrayList<>();
    String name = name(outerTemplateArgs);
    String qualifiers = memberQualifiers;
    if (p >= s.length() || s.charAt(p) == '.') return new Name(name, name);
    if (!outerTemplateArgs.isEmpty() && !name.contains("operator ")) type(); // a template function's return type
    List<String> params = new ArrayList<>();
    while (p < s.length() && s.charAt(p) != '.') params.add(type());
    if (params.size() == 1 && params.get(0).equals("void")) params.clear();
    return new Name(name, name + "(" + String.join(", ", params) + ")" + qualifiers);
  }

  private char peek() {
    return p < s.length() ? s.charAt(p) : '\0';
  }

  private void expect(char c) {
    if (peek() != c) throw new IllegalArgumentException("expected " + c + " at " + p);
    p++;
  }

  /** A (possibly nested, possibly templated) name; the template arguments of its last component go to {@code args}. */
  private String name(List<String> args) {
    char c = peek();
    if (c == 'N') return nested(args);
    if (c == 'S' && p + 1 < s.length() && s.charAt(p + 1) == 't') {
      p += 2;
      String n = "std::" + unqualified();
      return withTemplate(n, args, true);
    }
    if (c == 'Z') return local();
    String n = unqualified();
    return withTemplate(n, args, true);
  }

  private String withTemplate(String n, List<String> args, boolean substitutable) {
    if (peek() == 'I') {
      if (substitutable) subs.add(n);
      List<String> a = templateArgs();
      args.clear();
      args.addAll(a);
      templateArgs.clear();
      templateArgs.addAll(a);
      n = n + "<" + String.join(", ", a) + ">";
    }
    return n;
  }

  private String local() {
    expect('Z');
    Name fn = encodingInLocal();
    expect('E');
    String entity = name(new ArrayList<>());
    return fn.full() + "::" + entity;
  }

  private Name encodingInLocal() {
    List<String> a = new ArrayList<>();
    String n = name(a);
    if (!a.isEmpty()) type();
    List<String> params = new ArrayList<>();
    while (peek() != 'E') params.add(type());
    if (params.size() == 1 && params.get(0).equals("void")) params.clear();
    return new Name(n, n + "(" + String.join(", ", params) + ")");
  }

  /**
   * {@code N [cv] prefix… E}. Every prefix and template name is a substitution candidate; the complete name is not
   * (a function's name never is, and {@link #type} adds it when the name is a type).
   */
  private String nested(List<String> args) {
    expect('N');
    StringBuilder cv = new StringBuilder();
    while (peek() == 'r' || peek() == 'V' || peek() == 'K') {
      char q = s.charAt(p++);
      if (q == 'K') cv.append(" const");
      else if (q == 'V') cv.append(" volatile");
    }
    memberQualifiers = cv.toString();
    StringBuilder sb = new StringBuilder();
    while (peek() != 'E') {
      if (peek() == 'I') {
        List<String> a = templateArgs();
        args.clear();
        args.addAll(a);
        templateArgs.clear();
        templateArgs.addAll(a);
        sb.append('<').append(String.join(", ", a)).append('>');
      } else {
        boolean substituted = peek() == 'S' && sb.length() == 0;
        args.clear(); // template arguments count only on the last component
        String part = peek() == 'S' ? substitution() : peek() == 'T' ? templateParam() : unqualified();
        if (sb.length() > 0) sb.append("::");
        sb.append(part);
        if (substituted) continue; // already a candidate
      }
      if (peek() != 'E') subs.add(sb.toString());
    }
    p++;
    return sb.toString();
  }

  private String unqualified() {
    char c = peek();
    if (Character.isDigit(c)) return sourceName();
    if (c == 'C' && p + 1 < s.length() && Character.isDigit(s.charAt(p + 1))) {
      p += 2;
      return lastSourceName;
    }
    if (c == 'D' && p + 1 < s.length() && Character.isDigit(s.charAt(p + 1))) {
      p += 2;
      return "~" + lastSourceName;
    }
    if (c == 'L') {
      p++;
      return sourceName();
    }
    if (Character.isLowerCase(c) && p + 1 < s.length()) return operatorName();
    throw new IllegalArgumentException("unsupported name at " + p);
  }

  private String operatorName() {
    String code = s.substring(p, p + 2);
    p += 2;
    if (code.equals("cv")) return "operator " + type();
    String op = OPERATORS.get(code);
    if (op == null) throw new IllegalArgumentException("unknown operator " + code);
    return "operator" + op;
  }

  private static final java.util.Map<String, String> OPERATORS = java.util.Map.ofEntries(
      java.util.Map.entry("nw", " new"), java.util.Map.entry("na", " new[]"), java.util.Map.entry("dl", " delete"),
      java.util.Map.entry("da", " delete[]"), java.util.Map.entry("ps", "+"), java.util.Map.entry("ng", "-"),
      java.util.Map.entry("ad", "&"), java.util.Map.entry("de", "*"), java.util.Map.entry("co", "~"),
      java.util.Map.entry("pl", "+"), java.util.Map.entry("mi", "-"), java.util.Map.entry("ml", "*"),
      java.util.Map.entry("dv", "/"), java.util.Map.entry("rm", "%"), java.util.Map.entry("an", "&"),
      java.util.Map.entry("or", "|"), java.util.Map.entry("eo", "^"), java.util.Map.entry("aS", "="),
      java.util.Map.entry("pL", "+="), java.util.Map.entry("mI", "-="), java.util.Map.entry("mL", "*="),
      java.util.Map.entry("dV", "/="), java.util.Map.entry("rM", "%="), java.util.Map.entry("aN", "&="),
      java.util.Map.entry("oR", "|="), java.util.Map.entry("eO", "^="), java.util.Map.entry("ls", "<<"),
      java.util.Map.entry("rs", ">>"), java.util.Map.entry("lS", "<<="), java.util.Map.entry("rS", ">>="),
      java.util.Map.entry("eq", "=="), java.util.Map.entry("ne", "!="), java.util.Map.entry("lt", "<"),
      java.util.Map.entry("gt", ">"), java.util.Map.entry("le", "<="), java.util.Map.entry("ge", ">="),
      java.util.Map.entry("ss", "<=>"), java.util.Map.entry("nt", "!"), java.util.Map.entry("aa", "&&"),
      java.util.Map.entry("oo", "||"), java.util.Map.entry("pp", "++"), java.util.Map.entry("mm", "--"),
      java.util.Map.entry("cm", ","), java.util.Map.entry("pm", "->*"), java.util.Map.entry("pt", "->"),
      java.util.Map.entry("cl", "()"), java.util.Map.entry("ix", "[]"), java.util.Map.entry("qu", "?"));

  private String sourceName() {
    int start = p;
    while (Character.isDigit(peek())) p++;
    int n = Integer.parseInt(s.substring(start, p));
    String id = s.substring(p, p + n);
    p += n;
    if (id.startsWith("_GLOBAL__N")) return "(anonymous namespace)";
    lastSourceName = id;
    return id;
  }

  private List<String> templateArgs() {
    expect('I');
    List<String> a = new ArrayList<>();
    while (peek() != 'E') {
      if (peek() == 'L') {
        a.add(literal());
      } else if (peek() == 'X') {
        throw new IllegalArgumentException("expression template arguments are not supported");
      } else {
        a.add(type());
      }
    }
    p++;
    return a;
  }

  private String literal() {
    expect('L');
    if (peek() == '_' && p + 1 < s.length() && s.charAt(p + 1) == 'Z') {
      p += 2;
      Name n = encodingInLiteral();
      expect('E');
      return "&" + n.name();
    }
    String type = type();
    int start = p;
    while (peek() != 'E') p++;
    String value = s.substring(start, p).replace('n', '-');
    p++;
    switch (type) {
      case "bool": return value.equals("0") ? "false" : "true";
      case "int": return value;
      case "unsigned int": return value + "u";
      case "long": return value + "l";
      case "unsigned long": return value + "ul";
      default: return "(" + type + ")" + value;
    }
  }

  private Name encodingInLiteral() {
    List<String> a = new ArrayList<>();
    String n = name(a);
    return new Name(n, n);
  }

  private String templateParam() {
    expect('T');
    int index = 0;
    if (peek() != '_') {
      int start = p;
      while (peek() != '_') p++;
      index = Integer.parseInt(s.substring(start, p)) + 1;
    }
    expect('_');
    return index < templateArgs.size() ? templateArgs.get(index) : "T" + index;
  }

  private String substitution() {
    expect('S');
    char c = peek();
    switch (c) {
      case 't': p++; return "std";
      case 'a': p++; return "std::allocator";
      case 'b': p++; return "std::basic_string";
      case 's': p++; return "std::string";
      case 'i': p++; return "std::istream";
      case 'o': p++; return "std::ostream";
      case 'd': p++; return "std::iostream";
      default: break;
    }
    int index = 0;
    if (c != '_') {
      int start = p;
      while (peek() != '_') p++;
      index = Integer.parseInt(s.substring(start, p), 36) + 1;
    }
    expect('_');
    return subs.get(index);
  }

  private String type() {
    char c = peek();
    String builtin = builtin(c);
    if (builtin != null) {
      p++;
      return builtin;
    }
    String t;
    switch (c) {
      case 'P': p++; t = pointerLike(type(), "*"); subs.add(t); return t;
      case 'R': p++; t = pointerLike(type(), "&"); subs.add(t); return t;
      case 'O': p++; t = pointerLike(type(), "&&"); subs.add(t); return t;
      case 'K': p++; t = type() + " const"; subs.add(t); return t;
      case 'V': p++; t = type() + " volatile"; subs.add(t); return t;
      case 'r': p++; return type() + " restrict";
      case 'S': {
        if (p + 1 < s.length() && s.charAt(p + 1) == 't') {
          p += 2;
          t = "std::" + unqualified();
          subs.add(t);
          return withTemplate(t, new ArrayList<>(), false);
        }
        t = substitution();
        if (peek() == 'I') {
          t = t + "<" + String.join(", ", templateArgs()) + ">";
          subs.add(t);
        }
        return t;
      }
      case 'T': {
        t = templateParam();
        subs.add(t);
        if (peek() == 'I') {
          t = t + "<" + String.join(", ", templateArgs()) + ">";
          subs.add(t);
        }
        return t;
      }
      case 'D': return extendedType();
      case 'N': case 'Z': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8':
      case '9': {
        List<String> ignored = new ArrayList<>();
        t = c == 'N' ? nested(ignored) : c == 'Z' ? local() : unqualified();
        subs.add(t);
        if (c != 'N' && peek() == 'I') {
          t = t + "<" + String.join(", ", templateArgs()) + ">";
          subs.add(t);
        }
        return t;
      }
      case 'A': {
        p++;
        int start = p;
        while (peek() != '_') p++;
        String n = s.substring(start, p);
        p++;
        t = type() + " [" + n + "]";
        subs.add(t);
        return t;
      }
      default: throw new IllegalArgumentException("unsupported type at " + p);
    }
  }

  private static String pointerLike(String inner, String suffix) {
    return inner + suffix;
  }

  private String extendedType() {
    expect('D');
    char c = peek();
    p++;
    switch (c) {
      case 'h': return "_Float16";
      case 'f': return "decimal32";
      case 'i': return "char32_t";
      case 's': return "char16_t";
      case 'n': return "decltype(nullptr)";
      case 'a': return "auto";
      case 'v': {
        int start = p;
        while (peek() != '_') p++;
        String n = s.substring(start, p);
        p++;
        String t = type() + " __attribute__((ext_vector_type(" + n + ")))";
        subs.add(t);
        return t;
      }
      case 'F': {
        int start = p;
        while (Character.isDigit(peek())) p++;
        String bits = s.substring(start, p);
        if (peek() == '_') p++;
        return "_Float" + bits;
      }
      case 'B': {
        int start = p;
        while (peek() != '_') p++;
        String bits = s.substring(start, p);
        p++;
        return "_BitInt(" + bits + ")";
      }
      case 'U': {
        int start = p;
        while (peek() != '_') p++;
        String bits = s.substring(start, p);
        p++;
        return "unsigned _BitInt(" + bits + ")";
      }
      default: throw new IllegalArgumentException("unsupported extended type D" + c);
    }
  }

  private static String builtin(char c) {
    switch (c) {
      case 'v': return "void";
      case 'w': return "wchar_t";
      case 'b': return "bool";
      case 'c': return "char";
      case 'a': return "signed char";
      case 'h': return "unsigned char";
      case 's': return "short";
      case 't': return "unsigned short";
      case 'i': return "int";
      case 'j': return "unsigned int";
      case 'l': return "long";
      case 'm': return "unsigned long";
      case 'x': return "long long";
      case 'y': return "unsigned long long";
      case 'n': return "__int128";
      case 'o': return "unsigned __int128";
      case 'f': return "float";
      case 'd': return "double";
      case 'e': return "long double";
      case 'g': return "__float128";
      case 'z': return "...";
      default: return null;
    }
  }
}
